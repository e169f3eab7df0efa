#include "CThumbKit.h"
