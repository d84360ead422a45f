/**
 * The most JSON text a JavaScript tracer's answer may be, in characters: one result (what result()
 * returned, checked as it is encoded in the tracer's thread) and the whole response its thread hands
 * back (a block's results together). Past it the answer is an error, made in the tracer's thread, so
 * no oversize text crosses to the main thread, which a 200 MB result once brought down. The server's
 * own response limit, where it is lower, applies after this one.
 */
export const JS_TRACER_RESULT_MAX_CHARS = 64 * 1024 * 1024

/** The error of a tracer's answer past JS_TRACER_RESULT_MAX_CHARS. */
export const jsTracerResultTooLarge = (chars: number) =>
  `JavaScript tracer result too large: ${chars} characters of JSON, over the limit of ${JS_TRACER_RESULT_MAX_CHARS} (64 MiB)`
