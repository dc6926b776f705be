#include "console/guard.h"

#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/random.h>

int mp_console_token_new(char out[65], mp_err *err) {
  unsigned char raw[32];
  size_t got = 0;
  while (got < sizeof(raw)) {
    ssize_t n = getrandom(raw + got, sizeof(raw) - got, 0);
    if (n < 0 && errno == EINTR)
      continue;
    if (n < 0)
      return mp_err_set(err, MP_EIO, "cannot make the console's token: %s",
                        strerror(errno));
    got += (size_t)n;
  }
  for (size_t i = 0; i < sizeof(raw); i++)
    snprintf(out + 2 * i, 3, "%02x", raw[i]);
  return 0;
}

int mp_console_token_equal(const char *token, const char *given) {
  if (given == NULL)
    return 0;
  size_t n = strlen(token);
  if (strlen(given) != n)
    return 0;
  unsigned char diff = 0;
  for (size_t i = 0; i < n; i++)
    diff |= (unsigned char)(token[i] ^ given[i]);
  return diff == 0;
}

static int is_ip(const char *name) {
  unsigned char buf[sizeof(struct in6_addr)];
  return inet_pton(AF_INET, name, buf) == 1 ||
         inet_pton(AF_INET6, name, buf) == 1;
}

int mp_console_host_ok(const char *host, const char *listen, unsigned port) {
  if (host == NULL || !*host || strlen(host) > 300)
    return 0;
  char name[320];
  const char *port_part = NULL;
  if (host[0] == '[') { /* [v6]:port */
    const char *close = strchr(host, ']');
    if (close == NULL)
      return 0;
    snprintf(name, sizeof(name), "%.*s", (int)(close - host - 1), host + 1);
    if (close[1] == ':')
      port_part = close + 2;
    else if (close[1])
      return 0;
  } else {
    const char *colon = strchr(host, ':');
    if (colon && strchr(colon + 1, ':'))
      return 0; /* a bare v6 address */
    snprintf(name, sizeof(name), "%.*s",
             (int)(colon ? (size_t)(colon - host) : strlen(host)), host);
    if (colon)
      port_part = colon + 1;
  }
  if (port_part) {
    char *end;
    errno = 0;
    unsigned long p = strtoul(port_part, &end, 10);
    if (!*port_part || *end || errno || p != port)
      return 0;
  }
  if (!strcasecmp(name, "localhost") || is_ip(name))
    return 1;
  return listen != NULL && !strcasecmp(name, listen);
}

int mp_console_is_loopback(const char *addr) {
  struct in_addr a4;
  struct in6_addr a6;
  if (inet_pton(AF_INET, addr, &a4) == 1)
    return (ntohl(a4.s_addr) >> 24) == 127;
  if (inet_pton(AF_INET6, addr, &a6) == 1) {
    if (IN6_IS_ADDR_LOOPBACK(&a6))
      return 1;
    return IN6_IS_ADDR_V4MAPPED(&a6) && a6.s6_addr[12] == 127;
  }
  return !strcasecmp(addr, "localhost");
}
