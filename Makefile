# Driver for building, booting and testing our kprobe_events tracer.
# Each target is one stage; "run" and "check" chain them.  See README.
SHELL := /bin/bash
export BUILD_DIR ?= $(CURDIR)/build
export CMD TESTS

# KERNEL=6.1 or KERNEL=6.12 (the default): make run|check|...|patch
# KERNEL=6.1 builds Linux 6.1 from Debian's linux-source-6.1 instead of
# 6.12.  Each kernel has trees of its own (6.12's build/linux-6.12,
# build/upstream-6.12, ..., out-6.12 for make patch; 6.1's build/linux,
# build/upstream, ..., out), so that both kernels' builds stay warm.
# The scripts read KERNEL from the environment (scripts/common.sh).
KERNEL ?= 6.12
export KERNEL
ifneq ($(filter-out 6.1 6.12,$(KERNEL)),)
$(error KERNEL=$(KERNEL): only 6.1 and 6.12 are supported)
endif
KSUFFIX := $(if $(filter 6.12,$(KERNEL)),-6.12)

# ARCH=arm64 (make run|check|upstream|conformance|bench ARCH=arm64): the
# arm64 variants build/arm64 (ours) and build/upstream-arm64, cross-built
# with aarch64-linux-gnu-gcc from the same source trees and booted in
# qemu-system-aarch64 -M virt.  The scripts read ARCH from the
# environment (make puts command-line variables there).
ifneq ($(filter arm64 aarch64,$(ARCH)),)
UPSTREAM_IMAGE := $(BUILD_DIR)/upstream-arm64$(KSUFFIX)/obj/arch/arm64/boot/Image
ifneq ($(filter debug check-debug suites,$(MAKECMDGOALS)),)
$(error make $(filter debug check-debug suites,$(MAKECMDGOALS)): x86_64 only, not with ARCH=$(ARCH))
endif
else
UPSTREAM_IMAGE := $(BUILD_DIR)/upstream$(KSUFFIX)/obj/arch/x86/boot/bzImage
endif

PHONY_TARGETS := all deps prepare config kernel initramfs build run check patch sparse \
	conformance suites bench debug check-debug
.PHONY: $(PHONY_TARGETS) \
	upstream clean distclean

all: build

deps:
	@scripts/deps.sh

prepare: deps
	@scripts/prepare.sh linux

config: prepare
	@scripts/configure.sh linux

kernel: config
	@scripts/build-kernel.sh linux

initramfs: kernel
	@scripts/initramfs.sh linux

build: initramfs

# make run [CMD='shell command']
run: build
	@scripts/qemu-run.sh $(if $(CMD),--mode cmd --cmd "$$CMD")

# make check [TESTS='test_a.sh test_b.sh']
check: build
	@scripts/check.sh $(TESTS)

# The debug variant (build/debug): our kernel, the same config plus
# scripts/config.debug (KASAN, lockdep,
# kmemleak, UBSAN, lockdown LSM, ...), built from the same source tree.
debug: prepare
	@scripts/configure.sh debug
	@scripts/build-kernel.sh debug
	@scripts/initramfs.sh debug

# make check-debug: the debug kernel on 4 vCPUs runs the kselftests (with
# the long stress and fuzz settings), ftracetest's kprobe suites and a
# kmemleak scan, then a second short boot with lockdown=confidentiality.
check-debug: debug
	@scripts/check-debug.sh

# The pristine kernel with the same .config (the baseline).
upstream: deps
	@scripts/prepare.sh upstream
	@scripts/configure.sh upstream
	@scripts/build-kernel.sh upstream
	@scripts/initramfs.sh upstream

# The kernel's own ftracetest kprobe suites and Linux 6.12's (from
# Debian's linux-source-6.12) on upstream and on ours, side by side
# (scripts/conformance.sh), then on x86_64 the other projects' suites
# (make suites, below).  Builds upstream first if missing.
conformance: build
	@[ -f $(UPSTREAM_IMAGE) ] || $(MAKE) upstream
	@scripts/initramfs.sh upstream
	@scripts/conformance.sh both
	@$(if $(filter arm64 aarch64,$(ARCH)),true,scripts/suites.sh both)

# The kprobe suites other projects keep (perf's probe shell tests, BPF's
# test_progs kprobe cases), unchanged, on upstream and on ours, side by
# side (scripts/suites.sh, which has scripts/bpf-selftests.sh build
# test_progs).
# x86_64 only.  Builds upstream first if missing.
suites: build
	@[ -f $(UPSTREAM_IMAGE) ] || $(MAKE) upstream
	@scripts/suites.sh both

# Ours against upstream under qemu -icount (scripts/bench.sh): one table,
# BENCHMARKS.md and BENCHMARKS.png.  BENCH_QUICK=1 (default under CI=true)
# is a short run whose report goes to build/bench/.  With ARCH=arm64 the
# arm64 variants (build and upstream make theirs), in qemu-system-aarch64:
# a section of its own in BENCHMARKS.md, BENCHMARKS-arm64.png, and
# build/bench-arm64.
bench: build
	@scripts/deps.sh gnuplot-nox
	@$(MAKE) --no-print-directory upstream
	@scripts/bench.sh

patch: prepare
	@scripts/mkpatch.sh

# sparse (C=2) and W=1 over our object; any diagnostic fails.  ARCH=arm64:
# over the arm64 build's.
sparse: config
	@scripts/sparse.sh

# The object dirs (and make patch's output) of the kernel KERNEL names.
clean:
	rm -rf out$(KSUFFIX) $(BUILD_DIR)/linux$(KSUFFIX)/obj \
		$(BUILD_DIR)/upstream$(KSUFFIX)/obj $(BUILD_DIR)/debug$(KSUFFIX)/obj \
		$(BUILD_DIR)/arm64$(KSUFFIX)/obj $(BUILD_DIR)/upstream-arm64$(KSUFFIX)/obj

distclean:
	rm -rf out out-6.12 $(BUILD_DIR)
