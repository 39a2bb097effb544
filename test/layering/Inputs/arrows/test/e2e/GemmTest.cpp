// A test that reached past the Device interface.
static_cast<EmuDevice &>(device);
