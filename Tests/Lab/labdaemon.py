"""Daemon life cycle shared by the lab's python servers (httpdns_fixture.py, echo_backend.py).

serve(servers, pidfile, log, listening): leave lab.sh's session, ignore SIGHUP, exit cleanly on SIGTERM,
write the pid file only once every socket is bound, serve every server (the first on this thread), then
close them all and remove the pid file.
"""
import os
import signal
import sys
import threading


def serve(servers, pidfile, log, listening):
    try:
        os.setsid()  # leave lab.sh's process group and terminal
    except OSError:
        pass
    signal.signal(signal.SIGHUP, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    if pidfile:
        with open(pidfile + ".tmp", "w") as f:
            f.write(f"{os.getpid()}\n")
        os.replace(pidfile + ".tmp", pidfile)
    log("listening: " + listening)
    for srv in servers[1:]:
        threading.Thread(target=srv.serve_forever, daemon=True).start()
    try:
        servers[0].serve_forever()
    except (SystemExit, KeyboardInterrupt):
        pass
    finally:
        for srv in servers:
            srv.server_close()
        if pidfile:
            try:
                os.unlink(pidfile)
            except OSError:
                pass
        log("stopped")
