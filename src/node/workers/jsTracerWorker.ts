// A worker thread of the JavaScript-tracer pool (see createRangeWorkers with `harden`): the range
// worker's daemon in a realm hardened before any other module runs. Range threads stay unhardened:
// a locked-down realm runs the daemon's own work several times slower (measured in bench/workers.ts).
import '../../tracing/js/hardenRealm.js'

export { default } from './rangeWorker.js'
