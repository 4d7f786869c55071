#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# description: a default return probe loses no return of 1000 tasks
# sleeping in the probed function at once
KPE_SLEEPERS=${KPE_SLEEPERS_MANY:-1000} exec "$(dirname "$0")/test_return_sleepers.sh"
