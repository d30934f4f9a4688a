# Sourced by the bench scripts that mount a store: `stop_mount PID MOUNTPOINT` ends a mount started in
# the background (PID may be empty) and makes sure nothing stays mounted at MOUNTPOINT.
stop_mount() {
    if [ -n "$1" ]; then kill -TERM "$1" 2>/dev/null || true; wait "$1" 2>/dev/null || true; fi
    if grep -q " $2 " /proc/self/mountinfo; then fusermount3 -u "$2" 2>/dev/null || fusermount3 -u -z "$2"; fi
}
