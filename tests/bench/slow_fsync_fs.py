#!/usr/bin/python3
"""A passthrough file system whose every fsync and fdatasync takes 50 ms longer: a slow disk,
for the GUI-thread benchmark (gui_stall.py, part `slowdisk`).

    slow_fsync_fs.py BACKING MOUNTPOINT [DELAY_MS]

mounts the folder BACKING at MOUNTPOINT and serves it in the foreground until unmounted
(`fusermount3 -u MOUNTPOINT` or `umount MOUNTPOINT`). Reuses the passthrough operations of
tests/fs/case_insensitive_fs.py (names are looked up case-insensitively there, which the app's
data folder does not notice: its names are its own). Requests are served on several threads,
as a disk serves several at once; only syncs are delayed.

Needs Debian's python3-fusepy (module `fusepy`).
"""

import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "fs"))
from case_insensitive_fs import CaseInsensitive, fuse  # noqa: E402


class SlowFsync(CaseInsensitive):
    def __init__(self, backing, delay_s):
        super().__init__(backing)
        self.delay_s = delay_s

    def fsync(self, path, datasync, fh):
        time.sleep(self.delay_s)
        if datasync:
            os.fdatasync(fh)
        else:
            os.fsync(fh)
        return 0

    def fsyncdir(self, path, datasync, fh):
        time.sleep(self.delay_s)
        return 0


def main():
    if len(sys.argv) not in (3, 4):
        sys.exit(f"usage: {sys.argv[0]} BACKING MOUNTPOINT [DELAY_MS]")
    backing, mountpoint = sys.argv[1:3]
    delay_ms = float(sys.argv[3]) if len(sys.argv) == 4 else 50.0
    fuse.FUSE(SlowFsync(backing, delay_ms / 1000), mountpoint, foreground=True, nothreads=False,
              use_ino=True, fsname="slow_fsync_fs", attr_timeout=1, entry_timeout=1)


if __name__ == "__main__":
    main()
