// Imported first by the threads that run JavaScript tracers: SES's lockdown() freezes this realm's
// shared intrinsics (Object, Array, Function, their prototypes …) and tames the ones that reach out
// (Date.now, Math.random, the Function and eval constructors of compartments). A tracer then runs in
// a Compartment of its own (see evaluateJsTracer) and sees nothing of the host: no globals, no
// modules, no timers, no prototype it could poison for the daemon's code in the same thread.
import 'ses'

lockdown({
  // The daemon's own errors keep their stacks and messages (they are never a tracer's to read).
  errorTaming: 'unsafe',
  stackFiltering: 'verbose',
  consoleTaming: 'unsafe',
  // Libraries assign to properties their objects inherit from frozen prototypes (toString, constructor …).
  overrideTaming: 'severe',
})
