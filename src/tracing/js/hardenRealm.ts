// Imported first by the threads that run JavaScript tracers: SES's lockdown() freezes this realm's
// shared intrinsics (Object, Array, Function, their prototypes …) and tames the ones that reach out
// (Date.now, Math.random, the Function and eval constructors of compartments). A tracer then runs in
// a Compartment of its own (see evaluateJsTracer) and sees nothing of the host: no globals, no
// modules, no timers, no prototype it could poison for the daemon's code in the same thread.
import 'ses'

lockdown({
  // No error's stack is readable in this realm (an empty string): a tracer's errors, a host
  // helper's it caught, and `new Error().stack` would otherwise show the daemon's files and paths.
  // Messages are kept; the daemon's errors here reach clients by their message only.
  errorTaming: 'safe',
  stackFiltering: 'verbose',
  consoleTaming: 'unsafe',
  // Libraries assign to properties their objects inherit from frozen prototypes (toString, constructor …).
  overrideTaming: 'severe',
})
