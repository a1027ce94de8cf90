"""The files a user names on the simulator's command line: read them safely, write next to them
safely.

Every option that reads a file (``--settings``, ``--replay``, ``--storage``) goes through
:func:`read_input`: a path that is missing, a folder, a device or a pipe is refused before it is
opened (``/dev/zero`` would be read until memory runs out, a FIFO would block for ever), at most
``limit`` bytes are read, and text that is not UTF-8 is refused in one line. Every option that
writes one (``--record``, ``--screenshot``, ``--storage``) is checked by :func:`output_path`
before the run, and every file is written by :func:`write_atomically` (or :func:`write_new`): a
unique temporary file in the same folder, flushed, renamed over the target only when it is whole.
"""

import os
import stat
import tempfile


class UserFileError(ValueError):
    """A file the user named cannot be used; the message says why, in one line."""


def _name(option, path):
    # how messages name the file: "--replay game.txt", or only the path
    return "%s %s" % (option, path) if option else path


def regular_file(option, path):
    """``os.stat`` of ``path`` if it is an existing regular file, else ``UserFileError``."""
    if not path:
        raise UserFileError("%s needs a file name" % option)
    try:
        info = os.stat(path)
    except FileNotFoundError:
        raise UserFileError("%s: no such file" % _name(option, path))
    except OSError as error:
        raise UserFileError("%s: cannot read it (%s)" % (_name(option, path),
                                                        error.strerror or error))
    if stat.S_ISDIR(info.st_mode):
        raise UserFileError("%s is a folder, not a file" % _name(option, path))
    if not stat.S_ISREG(info.st_mode):
        raise UserFileError("%s is not a regular file (a device, a pipe...)"
                            % _name(option, path))
    return info


def read_input(option, path, limit, what, text=True):
    """The content of the user's file ``path`` (given as ``option``), at most ``limit`` bytes:
    ``str`` if ``text`` (UTF-8, a byte-order mark dropped), else ``bytes``. ``what`` names what
    the file should be ("a game record"), for the messages. Raises ``UserFileError``."""
    regular_file(option, path)
    try:
        # O_NONBLOCK: a pipe put there since the check above must not block the run
        handle = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) |
                         getattr(os, "O_BINARY", 0))
    except OSError as error:
        raise UserFileError("%s: cannot read it (%s)" % (_name(option, path),
                                                        error.strerror or error))
    try:
        if not stat.S_ISREG(os.fstat(handle).st_mode):
            raise UserFileError("%s is not a regular file (a device, a pipe...)"
                                % _name(option, path))
        data = b""
        while len(data) <= limit:
            chunk = os.read(handle, limit + 1 - len(data))
            if not chunk:
                break
            data += chunk
    except OSError as error:
        raise UserFileError("%s: cannot read it (%s)" % (_name(option, path),
                                                        error.strerror or error))
    finally:
        os.close(handle)
    if len(data) > limit:
        raise UserFileError("%s is over %d KB: not %s" % (_name(option, path),
                                                          max(1, limit >> 10), what))
    if not text:
        return data
    return decode_text(option, path, data, what)


def decode_text(option, path, data, what):
    """``data`` as text, or ``UserFileError`` in one line for bytes that are not UTF-8 text."""
    zero = data.find(b"\0")
    if zero >= 0:
        raise UserFileError("%s is binary, not text (a zero byte at offset %d): not %s"
                            % (_name(option, path), zero, what))
    try:
        return data.decode("utf-8-sig")  # a byte-order mark from a Windows editor is fine
    except UnicodeDecodeError as error:
        raise UserFileError("%s is not UTF-8 text (byte 0x%02x at offset %d): not %s"
                            % (_name(option, path), data[error.start], error.start, what))


def output_path(option, path):
    """Check a file the run will write (given as ``option``): an empty name, a folder, a
    device or a pipe (which a new file would replace, or which would block the run), a folder
    that does not exist or takes no new file (tried, then tidied up): each is a
    ``UserFileError``. Returns whether ``path`` exists. Nothing is written to ``path``."""
    if not path:
        raise UserFileError("%s needs a file name" % option)
    exists = os.path.exists(path)
    if exists:
        regular_file(option, path)
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        raise UserFileError("%s: folder %s does not exist" % (_name(option, path), folder))
    try:
        try_writing_in(os.path.dirname(os.path.realpath(path)))
    except OSError as error:
        raise UserFileError("%s: cannot write in %s (%s)" % (_name(option, path), folder,
                                                            error.strerror or error))
    return exists


def try_writing_in(folder):
    """Raise ``OSError`` unless a new file can be made in ``folder`` (one is, then removed)."""
    handle, probe = tempfile.mkstemp(dir=folder, prefix=".rolit-probe-")
    os.close(handle)
    os.remove(probe)


def write_atomically(path, write):
    """Make the file ``path`` by calling ``write(temporary_path)``, then renaming that file over
    ``path`` (through a link to the file it points to: the link stays). The temporary file has
    a fresh unique name in the same folder, ends like ``path`` (so a picture keeps its type) and
    is flushed to the disk before the rename and removed if anything fails: ``path`` is either
    the old file or the whole new one."""
    target = os.path.realpath(path)
    folder, name = os.path.split(target)
    temporary = _temporary(folder, name, os.path.splitext(name)[1])
    try:
        write(temporary)
        _flush(temporary)
        os.replace(temporary, target)
    except BaseException:
        try:
            os.remove(temporary)
        except OSError:
            pass
        raise


def write_new(path, write):
    """Like :func:`write_atomically`, but never over an existing file: returns False (and writes
    nothing) if ``path`` exists. The rename is a hard link, which fails if the name is taken, so
    a file that appears meanwhile is not replaced either."""
    if os.path.lexists(path):
        return False
    folder, name = os.path.split(os.path.abspath(path))
    temporary = _temporary(folder, name, "")
    try:
        write(temporary)
        _flush(temporary)
        try:
            os.link(temporary, path)
        except FileExistsError:
            return False
        except OSError:  # a filesystem without hard links: check, then rename
            if os.path.lexists(path):
                return False
            os.replace(temporary, path)
        return True
    finally:
        try:
            os.remove(temporary)
        except OSError:
            pass


def _temporary(folder, name, suffix):
    # A new empty file with a name nobody else has (never an old one written through), with
    # the permissions a plain new file would get (mkstemp's are owner-only).
    handle, temporary = tempfile.mkstemp(dir=folder, prefix="." + name + ".", suffix=suffix)
    try:
        mask = os.umask(0)
        os.umask(mask)
        os.chmod(temporary, 0o666 & ~mask)
    finally:
        os.close(handle)
    return temporary


def _flush(path):
    # On the disk before the rename, so a power cut leaves the old file or the whole new one.
    handle = os.open(path, os.O_RDWR | getattr(os, "O_BINARY", 0))
    try:
        os.fsync(handle)
    finally:
        os.close(handle)
