"""The most recent launch of the calling thread (kcc.last_launch())."""
import threading

_state = threading.local()


def record(info):
    _state.info = info
    return info


def last_launch():
    """The kcc.LaunchInfo of this thread's most recent op or kernel launch
    (GPU milliseconds on a HIP device, wave instructions on the emulator),
    or None before the first."""
    return getattr(_state, "info", None)
