// SPDX-License-Identifier: Apache-2.0
// Intentionally empty: the declaration in CFuzzDriver.h is implemented by libFuzzer itself.
#include "CFuzzDriver.h"
