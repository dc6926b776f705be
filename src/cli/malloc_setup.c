/* How the process's malloc is set up, before anything else runs. */
#include <malloc.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "cli/malloc_setup.h"
#include "cli/sanitized.h"
#include "engine/text.h"

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
#define HUGE_PAGE ((uintptr_t)2 << 20)
#define HEAP_RESERVE (1 << 30) /* address space, not memory */
#define LARGE_ALLOC (32 << 20) /* glibc's highest mmap threshold */

/* 1 if the kernel gives transparent huge pages to a region that asks
 * (its mode is "always" or "madvise") and a reserve of address space is
 * free: under strict overcommit accounting (mode 2) the 1 GiB would be
 * charged to this process, and again to each fork before its exec. */
static int huge_heap_possible(void) {
  char *overcommit =
      mp_text_file_first_line("/proc/sys/vm/overcommit_memory");
  char *thp =
      mp_text_file_first_line("/sys/kernel/mm/transparent_hugepage/enabled");
  int ok = !(overcommit && overcommit[0] == '2') && thp &&
           strstr(thp, "[never]") == NULL;
  free(overcommit);
  free(thp);
  return ok;
}

/* A large stack's no-op `up` spent a third of its CPU in the kernel,
 * mostly first touches of its heap's 4 KiB pages (about 18,000 page
 * faults for 10,000 resources, each one costly on a paravirtual VM). The
 * heap (one arena: the program break) is grown once by 1 GiB of address
 * space, asked to get huge pages (MADV_HUGEPAGE; memory is still only
 * taken as it is touched, 2 MiB at a time), and kept: glibc never gives
 * its top back (which would end the advised region), and serves
 * allocations up to 32 MiB from it rather than from mmap. A heap that
 * outgrows it goes on in 4 KiB pages. If the break cannot grow (a
 * limit), glibc maps memory instead and nothing is advised. */
static void heap_hugepages(void) {
  if (!huge_heap_possible() || !mallopt(M_MMAP_THRESHOLD, LARGE_ALLOC) ||
      !mallopt(M_TRIM_THRESHOLD, -1) || !mallopt(M_TOP_PAD, HEAP_RESERVE))
    return;
  uintptr_t before = (uintptr_t)sbrk(0);
  void *volatile grow = malloc(1 << 20); /* more than the top holds */
  uintptr_t after = (uintptr_t)sbrk(0);
  free(grow);
  mallopt(M_TOP_PAD, 128 << 10); /* glibc's default again */
  uintptr_t lo = (before + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1);
  uintptr_t hi = after & ~(HUGE_PAGE - 1);
  if (before != (uintptr_t)-1 && hi > lo)
    madvise((void *)lo, hi - lo, MADV_HUGEPAGE);
}
#else
/* The sanitizers have their own allocator. */
static void heap_hugepages(void) {}
#endif

void mp_cli_malloc_setup(void) {
  one_arena();
  heap_hugepages();
}
