# The non-interactive "make run": define an entry and a return probe,
# trigger them, show what was recorded.
set -e
cd /sys/kernel/tracing
echo 'p:demo_open do_sys_openat2' > kprobe_events
echo 'r:demo_read_ret vfs_read' >> kprobe_events
echo '# cat kprobe_events'
cat kprobe_events
echo 1 > events/kprobes/enable
# busybox cat uses sendfile(); head reads with read(), through vfs_read.
head -n 1 /proc/version > /dev/null
echo 0 > events/kprobes/enable
echo '# cat trace'
grep -v '^#' trace | head -6
echo '# cat kprobe_profile'
cat kprobe_profile
echo > kprobe_events
