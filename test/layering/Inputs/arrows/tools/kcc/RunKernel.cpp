// kcc run once built its own emulator and turned checking on by setenv.
auto ctx = emu::Context::create();
