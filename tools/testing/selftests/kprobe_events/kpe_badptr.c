// SPDX-License-Identifier: GPL-2.0
/*
 * kpe_badptr - call openat() with good and bad file name pointers, so that
 * a probe fetching the name from user memory meets faulting addresses.
 *
 *   good      a real string ("/proc/version")
 *   low       address 16 (never mapped)
 *   unmapped  a page that was mapped, then unmapped
 *   kernel    a kernel address (0xffffffff81000000), which user-memory
 *             fetches must refuse
 *
 * Prints one line per call: "NAME 0xADDRESS rc ERRNO", with the address
 * as an x64 argument of %si prints it.
 * Exits 0 when every call happened (the bad ones fail with EFAULT).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

static int try(const char *name, const char *ptr)
{
	long fd = syscall(SYS_openat, AT_FDCWD, ptr, O_RDONLY);
	int err = fd < 0 ? errno : 0;

	if (fd >= 0)
		close(fd);
	printf("%s 0x%lx %s\n", name, (unsigned long)(uintptr_t)ptr,
	       err ? (err == EFAULT ? "EFAULT" : strerror(err)) : "ok");
	return err;
}

int main(void)
{
	long page = sysconf(_SC_PAGESIZE);
	char *gone = mmap(NULL, page, PROT_READ | PROT_WRITE,
			  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	int bad = 0;

	if (gone == MAP_FAILED || munmap(gone, page)) {
		perror("kpe_badptr: mmap/munmap");
		return 2;
	}
	bad |= try("good", "/proc/version") != 0;
	bad |= try("low", (const char *)16) != EFAULT;
	bad |= try("unmapped", gone) != EFAULT;
	bad |= try("kernel", (const char *)0xffffffff81000000UL) != EFAULT;
	return bad;
}
