#include "CThumbKit.h"
#include <stdlib.h>
void tk_free(void *p) { free(p); }
