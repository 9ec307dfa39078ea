#!/usr/bin/python3
"""A case-insensitive passthrough file system, for tests (like a USB stick, exFAT or macOS).

    case_insensitive_fs.py BACKING MOUNTPOINT [--unstable-inodes]

mounts the folder BACKING at MOUNTPOINT and serves it in the foreground until unmounted
(`umount MOUNTPOINT` or `fusermount3 -u MOUNTPOINT`). A name finds the backing entry whose name
is the same after Unicode NFC normalisation and case folding (`TAXES` and `taxes` find
`Taxes`, `Cafe\u0301` finds `Café`); listing a folder shows the real names; creating a file or
folder whose name matches an existing entry that way reaches that entry; every spelling of an
entry has the backing inode number (`use_ino`), so two spellings are one (st_dev, st_ino) —
unless `--unstable-inodes` is given: then the kernel numbers each spelling apart, as some FUSE
mounts do, and identity cannot tell that two spellings are one.

Needs Debian's python3-fusepy (module `fusepy`; elsewhere it is called `fuse`).
"""

import errno
import os
import sys
import unicodedata

try:
    import fusepy as fuse
except ImportError:  # fusepy from PyPI
    import fuse


def key(name):
    """What two names must share to be the same name here."""
    return unicodedata.normalize("NFC", name).casefold()


def real_name(folder, name):
    """The name under which the backing `folder` holds `name`, or `name` when it holds none."""
    if os.path.lexists(os.path.join(folder, name)):
        return name
    wanted = key(name)
    try:
        entries = os.listdir(folder)
    except OSError:
        return name
    return next((entry for entry in entries if key(entry) == wanted), name)


class CaseInsensitive(fuse.Operations):
    use_ns = True

    def __init__(self, backing):
        self.backing = os.path.realpath(backing)

    def real(self, path):
        """The backing path of `path` (`/A/b`), each existing part spelled as it really is."""
        real = self.backing
        for name in path.split("/"):
            if name:
                real = os.path.join(real, real_name(real, name))
        return real

    # Reading what is there.
    def getattr(self, path, fh=None):
        st = os.fstat(fh) if fh is not None else os.lstat(self.real(path))
        names = ("st_mode", "st_ino", "st_nlink", "st_uid", "st_gid", "st_size",
                 "st_blocks", "st_atime", "st_mtime", "st_ctime")
        attrs = {name: getattr(st, name) for name in names}
        for name in ("st_atime", "st_mtime", "st_ctime"):
            attrs[name] = getattr(st, name + "_ns")
        return attrs

    def readdir(self, path, fh):
        return [".", ".."] + os.listdir(self.real(path))

    def readlink(self, path):
        return os.readlink(self.real(path))

    def statfs(self, path):
        st = os.statvfs(self.real(path))
        return {name: getattr(st, name) for name in (
            "f_bsize", "f_frsize", "f_blocks", "f_bfree", "f_bavail", "f_files", "f_ffree",
            "f_favail", "f_flag", "f_namemax")}

    # Files.
    def open(self, path, flags):
        return os.open(self.real(path), flags)

    def create(self, path, mode, fi=None):
        # `real` spells the last part as the existing entry when there is one.
        return os.open(self.real(path), os.O_WRONLY | os.O_CREAT | os.O_TRUNC, mode)

    def read(self, path, size, offset, fh):
        return os.pread(fh, size, offset)

    def write(self, path, data, offset, fh):
        return os.pwrite(fh, data, offset)

    def truncate(self, path, length, fh=None):
        if fh is not None:
            os.ftruncate(fh, length)
        else:
            os.truncate(self.real(path), length)

    def flush(self, path, fh):
        return 0

    def fsync(self, path, datasync, fh):
        os.fsync(fh)

    def release(self, path, fh):
        os.close(fh)

    # Changing names and attributes.
    def mkdir(self, path, mode):
        os.mkdir(self.real(path), mode)

    def rmdir(self, path):
        os.rmdir(self.real(path))

    def unlink(self, path):
        os.unlink(self.real(path))

    def symlink(self, target, source):
        # fusepy's order: the new link `target` leads to `source`.
        os.symlink(source, self.real(target))

    def link(self, target, source):
        os.link(self.real(source), self.real(target))

    def rename(self, old, new):
        source = self.real(old)
        folder = self.real(os.path.dirname(new))
        name = os.path.basename(new)
        existing = os.path.join(folder, real_name(folder, name))
        # Onto another entry of the same name: replace it. Onto itself: a change of case.
        target = existing if existing != source else os.path.join(folder, name)
        os.rename(source, target)

    def chmod(self, path, mode):
        os.chmod(self.real(path), mode)

    def chown(self, path, uid, gid):
        os.chown(self.real(path), uid, gid, follow_symlinks=False)

    def utimens(self, path, times=None):
        if times is None:
            os.utime(self.real(path), follow_symlinks=False)
        else:
            os.utime(self.real(path), ns=times, follow_symlinks=False)

    def access(self, path, mode):
        if not os.access(self.real(path), mode, follow_symlinks=False):
            raise fuse.FuseOSError(errno.EACCES)


def main():
    if len(sys.argv) not in (3, 4) or sys.argv[3:] not in ([], ["--unstable-inodes"]):
        sys.exit(f"usage: {sys.argv[0]} BACKING MOUNTPOINT [--unstable-inodes]")
    backing, mountpoint = sys.argv[1:3]
    stable = len(sys.argv) == 3
    # libfuse gives each spelling its own kernel inode: with nothing cached (names, attributes,
    # file pages), every spelling sees the one backing file as it is now.
    fuse.FUSE(CaseInsensitive(backing), mountpoint, foreground=True, nothreads=True,
              use_ino=stable, fsname="case_insensitive_fs", direct_io=True,
              entry_timeout=0, negative_timeout=0, attr_timeout=0)


if __name__ == "__main__":
    main()
