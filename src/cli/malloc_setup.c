/* How the process's malloc is set up, before anything else runs. */
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/malloc_setup.h"
#include "cli/sanitized.h"

/* The user's GLIBC_TUNABLES, kept across the re-exec below so that the
 * plugins, programs and policy packs started later get it back: "-" when
 * it was unset, else "=" and its value. */
#define SAVED_TUNABLES "MINIPULUMI_SAVED_GLIBC_TUNABLES"
#define HUGETLB "glibc.malloc.hugetlb"

/* One malloc arena for all threads. glibc gives each thread that
 * allocates (loop, generator, pool, key derivation) an arena of its own,
 * and what one frees is kept for that one: a no-op `up` of 10,000
 * resources peaked at ~101 MB with them, ~85 MB with one. The threads'
 * tcaches keep most allocations off the shared lock. MALLOC_ARENA_MAX,
 * when set, still decides. */
static void one_arena(void) {
#ifdef M_ARENA_MAX
  if (getenv("MALLOC_ARENA_MAX") == NULL) mallopt(M_ARENA_MAX, 1);
#endif
}

#if !MP_SANITIZED
/* 1 if the kernel gives transparent huge pages to a region that asks
 * (its mode is "always" or "madvise"). */
static int thp_available(void) {
  FILE *f = fopen("/sys/kernel/mm/transparent_hugepage/enabled", "r");
  if (f == NULL) return 0;
  char line[128] = {0};
  int ok = fgets(line, sizeof(line), f) != NULL &&
           strstr(line, "[never]") == NULL;
  fclose(f);
  return ok;
}

static void restore_tunables(const char *saved) {
  if (saved[0] == '=') setenv("GLIBC_TUNABLES", saved + 1, 1);
  else unsetenv("GLIBC_TUNABLES");
  unsetenv(SAVED_TUNABLES);
}

/* A large stack's no-op `up` spent a third of its CPU in the kernel,
 * mostly first touches of its heap's 4 KiB pages (about 18,000 page
 * faults for 10,000 resources; each one costly on a paravirtual VM). glibc
 * asks for huge pages for its heap only when told so at start-up
 * (GLIBC_TUNABLES, glibc.malloc.hugetlb=1; there is no mallopt for it),
 * so the process runs itself again once with it set, then gives its
 * children the user's value back. That costs a start of the binary
 * (loading its libraries: tens of milliseconds), so only the commands
 * that may hold a whole stack (|large_heap|) do it. Not under the
 * sanitizers (their own allocator) or valgrind (it would lose the new
 * image), nor when the user set that tunable. */
static void heap_hugepages(char **argv, int large_heap) {
  const char *saved = getenv(SAVED_TUNABLES);
  if (saved) { /* the image started below */
    restore_tunables(saved);
    return;
  }
  if (!large_heap) return;
  const char *cur = getenv("GLIBC_TUNABLES");
  const char *preload = getenv("LD_PRELOAD");
  if ((cur && strstr(cur, HUGETLB)) ||
      (preload && strstr(preload, "vgpreload")) || !thp_available())
    return;
  size_t n = (cur ? strlen(cur) : 0) + sizeof(HUGETLB "=1") + 2;
  char *tunables = malloc(n);
  char *keep = malloc(n);
  if (tunables == NULL || keep == NULL) {
    free(tunables);
    free(keep);
    return;
  }
  snprintf(tunables, n, "%s%s" HUGETLB "=1", cur ? cur : "", cur ? ":" : "");
  snprintf(keep, n, "%s%s", cur ? "=" : "-", cur ? cur : "");
  if (setenv(SAVED_TUNABLES, keep, 1) == 0 &&
      setenv("GLIBC_TUNABLES", tunables, 1) == 0)
    execv("/proc/self/exe", argv);
  /* not run again (no /proc, ...): go on without */
  restore_tunables(keep);
  free(tunables);
  free(keep);
}
#else
static void heap_hugepages(char **argv, int large_heap) {
  (void)argv;
  (void)large_heap;
}
#endif

void mp_cli_malloc_setup(char **argv, int large_heap) {
  heap_hugepages(argv, large_heap);
  one_arena();
}
