/* placeholder main, replaced by the CLI work */
#include <stdio.h>
int main(void) { printf("minipulumi version %s\n", MP_VERSION); return 0; }
