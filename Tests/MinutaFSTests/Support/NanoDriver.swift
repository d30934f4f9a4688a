/// A Python script that edits a file with nano through a pseudo-terminal, as a person would: replace
/// (`^\`) `argv[2]` with `argv[3]` everywhere, write out (`^O`, Enter), exit (`^X`). It waits for each of
/// nano's prompts before typing, so it does not depend on timing; it gives up after 10 s per prompt.
let nanoDriverScript = #"""
import os, pty, sys, time, select, fcntl, termios, struct
path, search, replacement = sys.argv[1], sys.argv[2].encode(), sys.argv[3].encode()
pid, fd = pty.fork()
if pid == 0:
    os.environ["TERM"] = "xterm"
    os.execvp("nano", ["nano", "--ignorercfiles", path])
fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
seen = b""
def wait_for(token, timeout=10):
    global seen
    end = time.time() + timeout
    while token not in seen:
        if time.time() > end:
            sys.stderr.write("timed out waiting for %r; screen: %r\n" % (token, seen[-300:]))
            os.kill(pid, 9)
            sys.exit(2)
        ready, _, _ = select.select([fd], [], [], 0.1)
        if ready:
            try:
                seen += os.read(fd, 4096)
            except OSError:
                break
    seen = b""
wait_for(search)
os.write(fd, b"\x1c")
wait_for(b"Search")
os.write(fd, search + b"\r")
wait_for(b"Replace with")
os.write(fd, replacement + b"\r")
wait_for(b"instance?")
os.write(fd, b"a")
wait_for(b"Replaced")
os.write(fd, b"\x0f")
wait_for(b"File Name to Write")
os.write(fd, b"\r")
wait_for(b"Wrote")
os.write(fd, b"\x18")
_, status = os.waitpid(pid, 0)
sys.exit(os.waitstatus_to_exitcode(status))
"""#
