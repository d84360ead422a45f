// geth's built-in JavaScript tracers, served under geth's names. geth's own sources are LGPL, so
// these are written here to the same API (the tracer object geth's engine and ours evaluate), and
// produce what geth's produce: its tracetest corpus (call_tracer_legacy, prestate_tracer_legacy)
// checks the two legacy tracers, the struct logger and the native 4byteTracer check the counters.

/**
 * callTracerLegacy: the call tree as geth's first (JavaScript) call tracer gives it. Its quirks are
 * kept: precompile calls are left out; a call into code that never ran (a plain account, a call
 * refused for balance or depth) has no gas figures; a call's output is what lies in the caller's
 * out buffer once it returns; a frame's error is its failing op's error, "execution reverted", or
 * "internal failure" when it failed without one (a code deposit, a transfer it could not pay).
 */
const callTracerLegacy = `{
  frames: [{ calls: [] }],
  outBuffer: null,
  returned: null,
  hex: function (n) { return '0x' + bigInt(n).toString(16) },
  step: function (log) {
    var depth = log.getDepth()
    if (this.returned !== null) {
      var call = this.returned
      call.output = toHex(log.memory.slice(call.outOffset, call.outOffset + call.outLength))
      delete call.outOffset
      delete call.outLength
      this.returned = null
    }
    this.frames[depth - 1].ran = true
    var op = log.op.toString()
    if (op === 'CALL' || op === 'CALLCODE' || op === 'DELEGATECALL' || op === 'STATICCALL') {
      var args = op === 'CALL' || op === 'CALLCODE' ? 5 : 4
      this.outBuffer = { offset: log.stack.peek(args).valueOf(), length: log.stack.peek(args + 1).valueOf() }
    }
  },
  fault: function (log) {
    var frame = this.frames[log.getDepth() - 1]
    if (frame && frame.error === undefined) frame.error = log.getError()
  },
  enter: function (frame) {
    var type = frame.getType()
    var call = { type: type, from: toHex(frame.getFrom()), to: toHex(frame.getTo()), input: toHex(frame.getInput()) }
    if (type !== 'DELEGATECALL' && type !== 'STATICCALL') call.value = this.hex(frame.getValue())
    var isCall = type === 'CALL' || type === 'CALLCODE' || type === 'DELEGATECALL' || type === 'STATICCALL'
    this.frames.push({
      call: call,
      gas: frame.getGas(),
      calls: [],
      ran: false,
      skip: isCall && isPrecompiled(frame.getTo()),
      out: isCall ? this.outBuffer : null,
    })
    this.outBuffer = null
  },
  exit: function (result) {
    var frame = this.frames.pop()
    if (frame.skip) return
    var call = frame.call
    var type = call.type
    var failed = result.getError() !== undefined
    if (failed && frame.error === undefined) frame.error = 'internal failure'
    if (type === 'SELFDESTRUCT') {
      delete call.input
    } else {
      if (frame.ran) call.gas = this.hex(frame.gas)
      if (frame.ran || type === 'CREATE' || type === 'CREATE2') call.gasUsed = this.hex(result.getGasUsed())
      if (type === 'CREATE' || type === 'CREATE2') {
        if (failed) delete call.to
        else call.output = toHex(result.getOutput())
      } else if (!failed && frame.out !== null) {
        call.outOffset = frame.out.offset
        call.outLength = frame.out.length
        this.returned = call
      }
    }
    if (frame.error !== undefined) call.error = frame.error
    if (frame.calls.length > 0) call.calls = frame.calls
    this.frames[this.frames.length - 1].calls.push(call)
  },
  result: function (ctx) {
    var top = this.frames[0]
    var out = {
      type: ctx.type, from: toHex(ctx.from), to: toHex(ctx.to), value: this.hex(ctx.value),
      gas: this.hex(ctx.gas), gasUsed: this.hex(ctx.gasUsed), input: toHex(ctx.input), output: toHex(ctx.output)
    }
    if (top.calls.length > 0) out.calls = top.calls
    var error = top.error !== undefined ? top.error : ctx.error
    if (error !== undefined) {
      out.error = error
      if (error !== 'execution reverted' || out.output === '0x') delete out.output
    }
    return out
  }
}`

/**
 * prestateTracerLegacy: every account the transaction touched, as it was before it ran (balance,
 * nonce, code, the storage slots it read or wrote), as geth's first prestate tracer gives it. Each
 * account is read when first met, and the transaction's own effects on the sender and the
 * recipient are undone in result() as geth's does: value moved back, gasUsed × ctx.gasPrice (geth's
 * effective tip) returned to the sender, its nonce less one, a created contract left out.
 */
const prestateTracerLegacy = `{
  accounts: null,
  note: function (db, address) {
    var key = toHex(address)
    if (this.accounts[key] !== undefined) return this.accounts[key]
    var account = { balance: '0x' + db.getBalance(address).toString(16), nonce: db.getNonce(address),
      code: toHex(db.getCode(address)), storage: {} }
    this.accounts[key] = account
    return account
  },
  word: function (n) { return toWord(n.toString(16)) },
  step: function (log, db) {
    var here = log.contract.getAddress()
    if (this.accounts === null) {
      this.accounts = {}
      this.note(db, here)
    }
    var op = log.op.toString()
    var stack = log.stack
    if (op === 'SLOAD' || op === 'SSTORE') {
      var slot = this.word(stack.peek(0))
      var storage = this.note(db, here).storage
      var key = toHex(slot)
      if (storage[key] === undefined) storage[key] = toHex(db.getState(here, slot))
    } else if (op === 'BALANCE' || op === 'EXTCODESIZE' || op === 'EXTCODECOPY' || op === 'EXTCODEHASH' || op === 'SELFDESTRUCT') {
      this.note(db, toAddress(stack.peek(0).toString(16)))
    } else if (op === 'CALL' || op === 'CALLCODE' || op === 'DELEGATECALL' || op === 'STATICCALL') {
      this.note(db, toAddress(stack.peek(1).toString(16)))
    } else if (op === 'CREATE') {
      this.note(db, toContract(here, db.getNonce(here)))
    } else if (op === 'CREATE2') {
      var offset = stack.peek(1).valueOf()
      var code = log.memory.slice(offset, offset + stack.peek(2).valueOf())
      this.note(db, toContract2(here, stack.peek(3).toString(16), code))
    }
  },
  fault: function () {},
  result: function (ctx, db) {
    if (this.accounts === null) this.accounts = {}
    var from = this.note(db, ctx.from)
    var to = this.note(db, ctx.to)
    to.balance = '0x' + bigInt(to.balance.slice(2), 16).subtract(ctx.value).toString(16)
    from.balance = '0x' + bigInt(from.balance.slice(2), 16).add(ctx.value)
      .add(bigInt(ctx.gasUsed).multiply(ctx.gasPrice)).toString(16)
    from.nonce -= 1
    if (ctx.type === 'CREATE') delete this.accounts[toHex(ctx.to)]
    return this.accounts
  }
}`

/** geth's names of its built-in JavaScript tracers that edgetrace serves, and their sources. */
export const BUILTIN_JS_TRACERS: ReadonlyMap<string, string> = new Map([
  ['callTracerLegacy', callTracerLegacy],
  ['prestateTracerLegacy', prestateTracerLegacy],
])
