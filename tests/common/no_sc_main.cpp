// libsystemc.so references sc_main (its own main() calls it). Tests that run no simulation
// use GoogleTest's main() and never call sc_main; this definition only satisfies the
// linker when libsystemc stays linked (e.g. in the unoptimised sanitizer build).
extern "C" int sc_main(int, char**) { return 0; }
