import { DEVNET_SOLC_SETTINGS } from '../scripts/compileContracts.js'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { hexToBytes } from '@ethereumjs/util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Devnet } from '../src/node/devnet/startDevnet.js'
import { parseCliArgs } from '../src/node/parseCliArgs.js'
import { readSourcesDir } from '../src/node/readSourcesDir.js'
import { type RunningEdgetrace, startEdgetrace } from '../src/node/startEdgetrace.js'
import { createSourceLocator } from '../src/sources/createSourceLocator.js'
import { type SourceRegistry, createSourceRegistry } from '../src/sources/createSourceRegistry.js'
import { decodeSourceMap, instructionIndexes } from '../src/sources/decodeSourceMap.js'
import { readStandardJson } from '../src/sources/readStandardJson.js'
import type { SourceContract } from '../src/sources/types.js'
import type { CallTraceNode } from '../src/tracing/recorder/types.js'
import { decodeFrameAbi } from '../src/tracing/render/source/decodeFrameAbi.js'
import type { InternalCall, SourceFrame } from '../src/tracing/render/source/toSourceFrames.js'
import { txByLabel, withDevnet } from './src/devnet.js'
import { runCli } from './src/runCli.js'
import { rpcResult } from './src/rpc.js'

// Issue 38, sources in: the devnet's contracts compiled here with solc (the settings the devnet's
// artifacts were built with) as standard JSON, written out as a Foundry out/ and a Hardhat
// build-info, matched to the devnet's deployed code, and traced at the source level through a server.

const require = createRequire(import.meta.url)
const contractsDir = join(import.meta.dirname, '../src/node/devnet/contracts')

type Json = Record<string, any>
let input: Json
let output: Json
let devnet: Devnet
let edge: RunningEdgetrace
let registry: SourceRegistry
let dir: string

function compile() {
  const { readFileSync } = require('node:fs') as typeof import('node:fs')
  const sources: Record<string, { content: string }> = {}
  for (const file of ['Inspector.sol', 'Scenarios.sol', 'Token.sol'])
    sources[file] = { content: readFileSync(join(contractsDir, file), 'utf8') }
  input = {
    language: 'Solidity',
    sources,
    settings: {
      ...DEVNET_SOLC_SETTINGS,
      outputSelection: {
        '*': {
          '*': [
            'abi',
            'metadata',
            'storageLayout',
            'evm.bytecode.object',
            'evm.bytecode.sourceMap',
            'evm.bytecode.linkReferences',
            'evm.deployedBytecode.object',
            'evm.deployedBytecode.sourceMap',
            'evm.deployedBytecode.immutableReferences',
            'evm.methodIdentifiers',
          ],
        },
      },
    },
  }
  const solc = require('solc') as { compile(input: string): string }
  output = JSON.parse(solc.compile(JSON.stringify(input)))
  const errors = (output.errors ?? []).filter((e: Json) => e.severity === 'error')
  if (errors.length > 0) throw new Error(errors.map((e: Json) => e.formattedMessage).join('\n'))
}

/** The same compilation as Foundry lays it out (out/<File>.sol/<Name>.json + build-info) and as Hardhat does. */
function writeLayouts() {
  dir = mkdtempSync(join(tmpdir(), 'edgetrace-sources-'))
  const sourceIdToPath: Record<string, string> = {}
  for (const [path, s] of Object.entries<Json>(output.sources)) sourceIdToPath[s.id] = path
  for (const [file, byName] of Object.entries<Json>(output.contracts)) {
    for (const [name, c] of Object.entries<Json>(byName)) {
      const at = join(dir, 'foundry/out', file)
      mkdirSync(at, { recursive: true })
      const d = c.evm.deployedBytecode
      const b = c.evm.bytecode
      writeFileSync(
        join(at, `${name}.json`),
        JSON.stringify({
          abi: c.abi,
          bytecode: { object: `0x${b.object}`, sourceMap: b.sourceMap, linkReferences: b.linkReferences },
          deployedBytecode: {
            object: `0x${d.object}`,
            sourceMap: d.sourceMap,
            immutableReferences: d.immutableReferences,
          },
          storageLayout: c.storageLayout,
          metadata: JSON.parse(c.metadata),
          id: output.sources[file].id,
          ast: { absolutePath: file },
        }),
      )
      // Hardhat's per-contract artifact (no source map): the reader takes the build-info instead.
      const hh = join(dir, 'hardhat/artifacts/contracts', file)
      mkdirSync(hh, { recursive: true })
      writeFileSync(
        join(hh, `${name}.json`),
        JSON.stringify({ contractName: name, abi: c.abi, deployedBytecode: `0x${d.object}` }),
      )
    }
  }
  mkdirSync(join(dir, 'foundry/out/build-info'), { recursive: true })
  writeFileSync(
    join(dir, 'foundry/out/build-info/0123abcd.json'),
    JSON.stringify({ id: '0123abcd', source_id_to_path: sourceIdToPath, input }),
  )
  mkdirSync(join(dir, 'hardhat/artifacts/build-info'), { recursive: true })
  writeFileSync(join(dir, 'hardhat/artifacts/build-info/4567ef.json'), JSON.stringify({ id: '4567ef', input, output }))
  writeFileSync(join(dir, 'standard.json'), JSON.stringify(output))
}

const code = async (address: string) =>
  hexToBytes(await rpcResult(devnet.anvil.url, 'eth_getCode', [address, 'latest']))

/** 1-based lines of each occurrence of `text` in `source`, counted here from the text alone. */
function linesOf(source: string, text: string): number[] {
  const out: number[] = []
  for (let at = source.indexOf(text); at >= 0; at = source.indexOf(text, at + 1))
    out.push(source.slice(0, at).split('\n').length)
  if (out.length === 0) throw new Error(`not in the source: ${text}`)
  return out
}
/** The line of text that occurs once in `source`. */
function lineOf(source: string, text: string): number {
  const lines = linesOf(source, text)
  if (lines.length !== 1) throw new Error(`${text} occurs ${lines.length} times`)
  return lines[0]!
}
const sourceText = (file: string) => input.sources[file].content as string
/** The selector (hex, no 0x) solc gives a function of a contract. */
const abiSelectorsOf = (name: string, fn: string) => {
  const file = Object.keys(output.contracts).find((f) => output.contracts[f][name])!
  const ids = output.contracts[file][name].evm.methodIdentifiers as Record<string, string>
  return Object.entries(ids).find(([sig]) => sig.startsWith(`${fn}(`))![1]
}

beforeAll(async () => {
  compile()
  writeLayouts()
  devnet = await withDevnet()
  registry = createSourceRegistry(readStandardJson(output, input))
  edge = await startEdgetrace({
    upstream: devnet.anvil.url,
    port: 0,
    hardfork: 'prague',
    api: ['eth', 'debug'],
    engine: { sources: registry },
  })
}, 120_000)
afterAll(async () => {
  await edge?.close()
  await devnet?.stop()
  if (dir) rmSync(dir, { recursive: true, force: true })
})

describe('reading build outputs', () => {
  const summary = (list: SourceContract[]) =>
    list
      .map((c) => ({
        name: c.name,
        file: c.file,
        runtime: c.runtime.length,
        map: c.sourceMap.length > 0,
        creation: c.creation?.code.length ?? 0,
        creationMap: (c.creation?.sourceMap.length ?? 0) > 0,
        abi: c.abi.length,
        layout: c.storageLayout !== undefined,
        texts: [...c.sources.values()]
          .filter((s) => s.content !== undefined)
          .map((s) => s.path)
          .sort(),
      }))
      .sort((a, b) => a.name.localeCompare(b.name))

  it('standard JSON, a Foundry out/, a Hardhat build-info and a standard-JSON file read to the same contracts', () => {
    const standard = summary(readStandardJson(output, input))
    expect(standard.map((c) => c.name)).toEqual(['Child', 'Inspector', 'Scenarios', 'Token'])
    expect(standard.every((c) => c.map && c.abi > 0 && c.layout && c.texts.length === 3)).toBe(true)
    expect(standard.every((c) => c.creation > c.runtime && c.creationMap)).toBe(true)
    expect(summary(readSourcesDir(join(dir, 'foundry')))).toEqual(standard)
    expect(summary(readSourcesDir(join(dir, 'foundry/out')))).toEqual(standard)
    expect(summary(readSourcesDir(join(dir, 'hardhat')))).toEqual(standard)
    // A bare output file has no input: the contracts, without the sources' text.
    // Hardhat's per-contract artifacts are not read: only the build-info's contracts count.
    const bare = summary(readSourcesDir(join(dir, 'standard.json')))
    expect(bare.map((c) => ({ ...c, texts: [] }))).toEqual(standard.map((c) => ({ ...c, texts: [] })))
    expect(bare.every((c) => c.texts.length === 0)).toBe(true)
    expect(() => readSourcesDir(join(dir, 'nothing-here'))).toThrow(/no such file/)
  })

  it('a Foundry out/ without build-info: each artifact with its own file, read from the project', () => {
    const project = join(dir, 'foundry-bare')
    mkdirSync(join(project, 'out/Token.sol'), { recursive: true })
    const { readFileSync } = require('node:fs') as typeof import('node:fs')
    writeFileSync(
      join(project, 'out/Token.sol/Token.json'),
      readFileSync(join(dir, 'foundry/out/Token.sol/Token.json')),
    )
    writeFileSync(join(project, 'Token.sol'), sourceText('Token.sol'))
    const [token] = readSourcesDir(project)
    expect(token!.name).toBe('Token')
    expect([...token!.sources.values()]).toEqual([{ path: 'Token.sol', content: sourceText('Token.sol') }])
    const line = lineOf(sourceText('Token.sol'), 'require(allowed >= value, "insufficient allowance")')
    const locator = createSourceLocator(token!)
    const lines = new Set<number>()
    for (let pc = 0; pc < token!.runtime.length; pc++) {
      const at = locator.at(pc)
      if (at?.text.startsWith('require(allowed >= value')) lines.add(at.line)
    }
    expect([...lines]).toEqual([line])
  })

  it('--sources is repeatable', () => {
    expect(parseCliArgs(['--sources', 'out', '--sources=artifacts']).sources).toEqual(['out', 'artifacts'])
    expect(parseCliArgs([]).sources).toEqual([])
  })
})

describe('matching by runtime bytecode', () => {
  it("the devnet's deployed code matches its contract; the helper instance (same code, other address) too", async () => {
    expect(registry.match(await code(devnet.contracts.Token!))?.name).toBe('Token')
    expect(registry.match(await code(devnet.contracts.Scenarios!))?.name).toBe('Scenarios')
    expect(registry.match(await code(devnet.contracts.Helper!))?.name).toBe('Scenarios')
    expect(registry.match(await code(devnet.contracts.Inspector!))?.name).toBe('Inspector')
    expect(registry.match(await code(devnet.contracts.BadJump!))).toBeUndefined()
  })

  it('a different metadata tail is ignored; a changed instruction is not', async () => {
    const token = await code(devnet.contracts.Token!)
    const len = (token[token.length - 2]! << 8) | token[token.length - 1]!
    const otherMeta = token.slice()
    otherMeta[token.length - 2 - len + 10] ^= 0xff // inside the CBOR (the ipfs hash)
    expect(registry.match(otherMeta)?.name).toBe('Token')
    const changed = token.slice()
    changed[5] ^= 0x01
    expect(registry.match(changed)).toBeUndefined()
    expect(registry.match(new Uint8Array(0))).toBeUndefined()
  })

  it('immutables are masked on both sides: the same code with other immutable values matches', () => {
    const runtime = new Uint8Array([0x60, 0x01, 0x7f, ...new Uint8Array(32), 0x00, 0xa1, 0x00, 0x01])
    const contract: SourceContract = {
      name: 'WithImmutable',
      file: 'W.sol',
      runtime,
      sourceMap: '',
      masked: [{ start: 3, length: 32 }],
      abi: [],
      storageLayout: undefined,
      sources: new Map(),
    }
    const reg = createSourceRegistry([contract])
    const deployed = runtime.slice()
    deployed.fill(0xab, 3, 35)
    expect(reg.match(deployed)?.name).toBe('WithImmutable')
    deployed[1] = 0x02
    expect(reg.match(deployed)).toBeUndefined()
  })
})

describe('source maps', () => {
  it('decodes the compressed form (empty fields repeat the previous entry)', () => {
    expect(decodeSourceMap('1:2:0:-;:3;;4::1:i;5:6:-1:o:1')).toEqual([
      { s: 1, l: 2, f: 0, j: '-', m: 0 },
      { s: 1, l: 3, f: 0, j: '-', m: 0 },
      { s: 1, l: 3, f: 0, j: '-', m: 0 },
      { s: 4, l: 3, f: 1, j: 'i', m: 0 },
      { s: 5, l: 6, f: -1, j: 'o', m: 1 },
    ])
    // PUSH2's two immediates are no instructions; PUSH0 has none.
    expect([...instructionIndexes(new Uint8Array([0x61, 0xaa, 0xbb, 0x5f, 0x56]))]).toEqual([0, -1, -1, 1, 2])
  })

  it("pcs map to the lines of their statements' text in the source", () => {
    const checks: [string, string][] = [
      ['Scenarios', 'revert("scenario reverted")'],
      ['Scenarios', 'counter += 1'],
      ['Token', 'require(balanceOf[from] >= value, "insufficient balance")'],
      ['Token', 'require(allowed >= value, "insufficient allowance")'],
    ]
    const contracts = readStandardJson(output, input)
    for (const [name, statement] of checks) {
      const contract = contracts.find((c) => c.name === name)!
      const locator = createSourceLocator(contract)
      const want = linesOf(sourceText(contract.file), statement)
      const pcs: number[] = []
      for (let pc = 0; pc < contract.runtime.length; pc++) {
        const at = locator.at(pc)
        if (at?.text.startsWith(statement)) {
          pcs.push(pc)
          expect(want, `${name} pc ${pc}: ${statement}`).toContain(at.line)
          expect(at.file).toBe(contract.file)
        }
      }
      expect(pcs.length, statement).toBeGreaterThan(0)
    }
  })
})

describe('edgetrace_sourceTracer', () => {
  const trace = (hash: string, tracer = 'edgetrace_sourceTracer') =>
    rpcResult(edge.url, 'debug_traceTransaction', [hash, { tracer }])
  const stepsGas = (scope: { steps: { gasUsed: number }[] }) => scope.steps.reduce((s, x) => s + x.gasUsed, 0)

  it('names the frames and functions of nested calls; per-line gas sums to each frame’s gas, as callTracer reports it', async () => {
    const { hash } = txByLabel(devnet, 'nested token calls (transferFrom, transfer, balanceOf)')
    const top: SourceFrame = await trace(hash)
    const calls = await trace(hash, 'callTracer')
    expect(top.contract).toBe('Scenarios')
    expect(top.function).toBe('pull')
    expect(top.calls.map((c) => [c.contract, c.function, c.type])).toEqual([
      ['Token', 'transferFrom', 'CALL'],
      ['Token', 'transfer', 'CALL'],
      ['Token', 'balanceOf', 'STATICCALL'],
    ])
    // A frame's gas: its own statements' and its internal calls' (each call's gas counted in its entry only).
    const frameGas = (f: SourceFrame) => stepsGas(f) + f.internalCalls.reduce((s, c) => s + c.gasUsed, 0)
    for (const [i, child] of top.calls.entries()) {
      expect(frameGas(child)).toBe(child.gasUsed)
      expect(child.gasUsed).toBe(Number(calls.calls[i].gasUsed))
    }
    // The top frame: callTracer's gasUsed is the transaction's (intrinsic gas, less any refund).
    expect(frameGas(top)).toBe(top.gasUsed)
    const receipt = await rpcResult(devnet.anvil.url, 'eth_getTransactionReceipt', [hash])
    expect(Number(calls.gasUsed)).toBe(Number(receipt.gasUsed))
    const tx = await rpcResult(devnet.anvil.url, 'eth_getTransactionByHash', [hash])
    const data = hexToBytes(tx.input)
    const intrinsic = 21_000 + data.reduce((s, b) => s + (b === 0 ? 4 : 16), 0)
    // No storage cleared in pull, so no refund: execution gas + intrinsic = the transaction's.
    expect(top.gasUsed + intrinsic).toBe(Number(receipt.gasUsed))
    // Lines are real lines of the right files.
    for (const step of top.calls[0]!.steps) {
      if (step.file === null) continue
      expect(step.file).toBe('Token.sol')
      expect(step.line).toBeGreaterThan(0)
      expect(step.line).toBeLessThanOrEqual(sourceText('Token.sol').split('\n').length)
    }
  })

  it('reconstructs an internal call (Token.transfer → _move) from the jump types', async () => {
    const { hash } = txByLabel(devnet, 'token transfer (legacy, type 0)')
    const top: SourceFrame = await trace(hash)
    expect([top.contract, top.function]).toEqual(['Token', 'transfer'])
    const all: InternalCall[] = []
    const collect = (c: InternalCall) => {
      all.push(c)
      c.internalCalls.forEach(collect)
    }
    top.internalCalls.forEach(collect)
    const move = all.find((c) => c.function === '_move')
    expect(move, JSON.stringify(top.internalCalls.map((c) => c.function))).toBeDefined()
    expect(move!.line).toBe(lineOf(sourceText('Token.sol'), '_move(msg.sender, to, value)'))
    const text = sourceText('Token.sol')
    const requireLine = lineOf(text, 'require(balanceOf[from] >= value, "insufficient balance")')
    expect(move!.steps.some((s) => s.line === requireLine)).toBe(true)
    expect(move!.gasUsed).toBe(stepsGas(move!) + move!.internalCalls.reduce((s, c) => s + c.gasUsed, 0))
  })

  it('gives the revert line of a reverted frame; code that matches nothing has frames without lines', async () => {
    const reverted: SourceFrame = await trace(txByLabel(devnet, 'revert with Error(string)').hash)
    expect([reverted.contract, reverted.function, reverted.reverted]).toEqual(['Scenarios', 'revertWithReason', true])
    expect(reverted.revert).toEqual({
      file: 'Scenarios.sol',
      line: lineOf(sourceText('Scenarios.sol'), 'revert("scenario reverted")'),
    })
    const bad: SourceFrame = await trace(txByLabel(devnet, 'bad jump at the top').hash)
    expect(bad.contract).toBeNull()
    expect(bad.revert).toBeNull()
    expect(bad.steps.every((s) => s.file === null && s.line === null)).toBe(true)
    expect(bad.internalCalls).toEqual([])
  })

  it('matches by the code that runs: a DELEGATECALL frame is the callee code’s (the helper instance), at its own lines', async () => {
    const top: SourceFrame = await trace(txByLabel(devnet, 'DELEGATECALL').hash)
    expect([top.contract, top.function]).toEqual(['Scenarios', 'delegate'])
    const [child] = top.calls
    expect([child!.type, child!.contract, child!.function]).toEqual(['DELEGATECALL', 'Scenarios', 'increment'])
    expect(child!.address).toBe(devnet.contracts.Helper!.toLowerCase())
    const line = linesOf(sourceText('Scenarios.sol'), 'counter += 1')[0]!
    expect(
      child!.steps.some((s) => s.line === line) ||
        child!.internalCalls.some((c) => c.steps.some((s) => s.line === line)),
    ).toBe(true)
    // Its storage is the caller's (Scenarios at its own address), named by the running code's layout.
    const counter = child!.storage!.variables.find((v) => v.name === 'counter')!
    expect(BigInt(counter.after) - BigInt(counter.before)).toBe(1n)
    const layout = output.contracts['Scenarios.sol'].Scenarios.storageLayout.storage as Json[]
    expect(BigInt(counter.slot)).toBe(BigInt(layout.find((v) => v.label === 'counter')!.slot))
    const { blockNumber } = txByLabel(devnet, 'DELEGATECALL')
    const held = (address: string) =>
      rpcResult(devnet.anvil.url, 'eth_getStorageAt', [address, counter.slot, `0x${blockNumber.toString(16)}`])
    expect(BigInt(await held(devnet.contracts.Scenarios!))).toBe(BigInt(counter.after))
  })

  it('names the storage each frame touched by the layout (mappings by the keys hashed), decodes calls, events and reverts by the ABI', async () => {
    const top: SourceFrame = await trace(
      txByLabel(devnet, 'nested token calls (transferFrom, transfer, balanceOf)').hash,
    )
    const [pulled, paid] = top.calls
    const scenarios = devnet.contracts.Scenarios!.toLowerCase()
    const [from, to, amount] = pulled!.call!.args.map((a) => a.value as string)
    expect(pulled!.call!.signature).toBe('transferFrom(address,address,uint256)')
    expect(to).toBe(scenarios)
    const vars = (f: SourceFrame) => Object.fromEntries(f.storage!.variables.map((v) => [v.name, v]))
    const diff = (v: { before: string; after: string }) => BigInt(v.after) - BigInt(v.before)
    // Before and after are the transaction's: Scenarios pulls `amount` and pays half of it back.
    const pulledVars = vars(pulled!)
    expect(diff(pulledVars[`allowance[${from}][${scenarios}]`]!)).toBe(-BigInt(amount!))
    expect(diff(pulledVars[`balanceOf[${from}]`]!)).toBe(-BigInt(amount!) / 2n)
    expect(diff(pulledVars[`balanceOf[${scenarios}]`]!)).toBe(BigInt(amount!) / 2n)
    expect(pulled!.storage!.raw).toEqual([])
    expect(Object.keys(vars(paid!)).sort()).toEqual([`balanceOf[${from}]`, `balanceOf[${scenarios}]`].sort())
    expect(pulled!.events.map((e) => [e.name, e.args])).toEqual([
      [
        'Transfer',
        [
          { name: 'from', type: 'address', value: from },
          { name: 'to', type: 'address', value: scenarios },
          { name: 'value', type: 'uint256', value: amount },
        ],
      ],
    ])
    expect(top.storage).toBeNull() // Scenarios.pull itself reads and writes no storage
    const reverted: SourceFrame = await trace(txByLabel(devnet, 'revert with Error(string)').hash)
    expect(reverted.revertError).toMatchObject({ kind: 'Error', message: 'scenario reverted' })
  })

  it('serves debug_traceCall and debug_traceBlockByNumber too', async () => {
    const data = `0x${abiSelectorsOf('Scenarios', 'revertWithReason')}`
    const call: SourceFrame = await rpcResult(edge.url, 'debug_traceCall', [
      { from: devnet.accounts[0], to: devnet.contracts.Scenarios, data, gas: '0x100000' },
      'latest',
      { tracer: 'edgetrace_sourceTracer' },
    ])
    expect([call.contract, call.function, call.revert?.line]).toEqual([
      'Scenarios',
      'revertWithReason',
      lineOf(sourceText('Scenarios.sol'), 'revert("scenario reverted")'),
    ])
    const { blockNumber, hash } = txByLabel(devnet, 'token transfer (legacy, type 0)')
    const block: { txHash: string; result: SourceFrame }[] = await rpcResult(edge.url, 'debug_traceBlockByNumber', [
      `0x${blockNumber.toString(16)}`,
      { tracer: 'edgetrace_sourceTracer' },
    ])
    const mine = block.find((b) => b.txHash === hash)!
    expect([mine.result.contract, mine.result.function]).toEqual(['Token', 'transfer'])
  })

  it('concurrent block traces with the source tracer stay with the daemon that has the sources (not handed to a worker)', async () => {
    const withWorker = await startEdgetrace({
      upstream: devnet.anvil.url,
      port: 0,
      hardfork: 'prague',
      api: ['eth', 'debug'],
      workers: { threads: 1, warm: true },
      engine: { sources: registry },
    })
    try {
      const { blockNumber, hash } = txByLabel(devnet, 'token transfer (legacy, type 0)')
      const block = `0x${blockNumber.toString(16)}`
      const source = { tracer: 'edgetrace_sourceTracer' }
      // Three at once: without the guard, the second and third go to the worker, whose daemon has no sources.
      const [a, b, c] = await Promise.all([
        rpcResult(withWorker.url, 'debug_traceBlockByNumber', [block, source]),
        rpcResult(withWorker.url, 'debug_traceBlockByNumber', [block, source]),
        rpcResult(withWorker.url, 'debug_traceBlockByNumber', [
          block,
          { tracer: 'muxTracer', tracerConfig: { edgetrace_sourceTracer: {} } },
        ]),
      ])
      for (const traced of [a, b])
        expect(traced.find((t: { txHash: string }) => t.txHash === hash).result.contract).toBe('Token')
      expect(c.find((t: { txHash: string }) => t.txHash === hash).result.edgetrace_sourceTracer.contract).toBe('Token')
    } finally {
      await withWorker.close()
    }
  }, 60_000)

  it('the CLI: --sources (twice) reads the build outputs, says so, and its server traces at the source level', async () => {
    const run = await runCli(
      [
        ...['--upstream', devnet.anvil.url, '--hardfork', 'prague', '--http.port', '0', '--http.api', 'eth,debug'],
        ...['--workers', '0', '--sources', join(dir, 'foundry'), '--sources', join(dir, 'hardhat/artifacts')],
      ],
      /listening: +\S+/,
    )
    try {
      expect(run.output).toContain(
        `sources:    4 contracts from ${join(dir, 'foundry')}, ${join(dir, 'hardhat/artifacts')}`,
      )
      const url = /listening: +(\S+)/.exec(run.output)![1]!
      const top: SourceFrame = await rpcResult(url, 'debug_traceTransaction', [
        txByLabel(devnet, 'revert with Error(string)').hash,
        { tracer: 'edgetrace_sourceTracer' },
      ])
      expect([top.contract, top.function, top.revert]).toEqual([
        'Scenarios',
        'revertWithReason',
        { file: 'Scenarios.sol', line: lineOf(sourceText('Scenarios.sol'), 'revert("scenario reverted")') },
      ])
    } finally {
      run.kill()
    }
  }, 60_000)
})

describe('constructors: init code matched to the creation bytecode', () => {
  const trace = (hash: string, tracer = 'edgetrace_sourceTracer') =>
    rpcResult(edge.url, 'debug_traceTransaction', [hash, { tracer }])
  const allSteps = (scope: { steps: { line: number | null; gasUsed: number }[]; internalCalls: any[] }) => {
    const out: { line: number | null; gasUsed: number }[] = [...scope.steps]
    for (const c of scope.internalCalls) out.push(...allSteps(c))
    return out
  }

  it('a creation transaction (the devnet deploying Token, its supply appended): the constructor’s lines and gas per line', async () => {
    const { hash } = txByLabel(devnet, 'deploy Token')
    const top: SourceFrame = await trace(hash)
    expect([top.type, top.contract, top.function, top.reverted]).toEqual(['CREATE', 'Token', 'constructor', false])
    // The constructor's arguments: the bytes after the creation bytecode, by the ABI's constructor entry.
    expect(top.call).toEqual({
      name: 'constructor',
      signature: 'constructor(uint256)',
      args: [{ name: 'supply', type: 'uint256', value: (1_000_000n * 10n ** 18n).toString() }],
    })
    const text = sourceText('Token.sol')
    const lines = new Set(allSteps(top).map((s) => s.line))
    for (const statement of [
      'totalSupply = supply',
      'balanceOf[msg.sender] = supply',
      'emit Transfer(address(0), msg.sender, supply)',
    ])
      expect(lines, statement).toContain(lineOf(text, statement))
    expect(allSteps(top).every((s) => s.line === null || s.line <= text.split('\n').length)).toBe(true)
    // Gas per line sums to the frame's: the init code's instructions, each counted once.
    expect(allSteps(top).reduce((sum, s) => sum + s.gasUsed, 0)).toBe(top.gasUsed)
    const calls = await trace(hash, 'callTracer')
    const receipt = await rpcResult(devnet.anvil.url, 'eth_getTransactionReceipt', [hash])
    expect(Number(calls.gasUsed)).toBe(Number(receipt.gasUsed))
    // Storage by the Token's layout: the deployer's balance, the supply.
    const names = top.storage!.variables.map((v) => v.name)
    expect(names).toContain('totalSupply')
    expect(names).toContain(`balanceOf[${devnet.accounts[0]!.toLowerCase()}]`)
  })

  it('a CREATE frame (Scenarios.create → new Child(42, false)) and a constructor that reverts (its require line)', async () => {
    const created: SourceFrame = await trace(txByLabel(devnet, 'CREATE').hash)
    const [child] = created.calls
    expect([child!.type, child!.contract, child!.function]).toEqual(['CREATE', 'Child', 'constructor'])
    expect(child!.call).toEqual({
      name: 'constructor',
      signature: 'constructor(uint256,bool)',
      args: [
        { name: 'v', type: 'uint256', value: '42' },
        { name: 'fail', type: 'bool', value: 'false' },
      ],
    })
    const text = sourceText('Scenarios.sol')
    const lines = new Set(allSteps(child!).map((s) => s.line))
    expect(lines).toContain(lineOf(text, 'emit Born(msg.sender, v)'))
    expect(child!.events.map((e) => e.name)).toEqual(['Born'])
    const failing: SourceFrame = await trace(txByLabel(devnet, 'CREATE whose constructor reverts').hash)
    const [failed] = failing.calls
    expect([failed!.type, failed!.contract, failed!.function, failed!.reverted]).toEqual([
      'CREATE',
      'Child',
      'constructor',
      true,
    ])
    expect(failed!.revert).toEqual({
      file: 'Scenarios.sol',
      line: lineOf(text, 'require(!fail, "child constructor reverted")'),
    })
    expect(failed!.revertError).toMatchObject({ kind: 'Error', message: 'child constructor reverted' })
  })

  it('init code matches by its creation bytecode: arguments after it, another metadata hash and other library addresses do not matter; a changed instruction does', () => {
    const token = readStandardJson(output, input).find((c) => c.name === 'Token')!
    const creation = token.creation!
    const args = hexToBytes(`0x${'00'.repeat(31)}64`)
    const init = new Uint8Array([...creation.code, ...args])
    expect(registry.matchCreation(init)?.name).toBe('Token')
    // The runtime code's metadata inside the creation code: another hash still matches.
    const meta = creation.masked.at(-1)!
    const otherMeta = init.slice()
    otherMeta[meta.start + 10]! ^= 0xff
    expect(registry.matchCreation(otherMeta)?.name).toBe('Token')
    const changed = init.slice()
    changed[3]! ^= 0x01
    expect(registry.matchCreation(changed)).toBeUndefined()
    // Shorter than the creation code: not it.
    expect(registry.matchCreation(creation.code.subarray(0, creation.code.length - 1))).toBeUndefined()
    // A library placeholder in the creation code: its 20 bytes masked, any address matches.
    const linked = readStandardJson({
      sources: { 'L.sol': { id: 0 } },
      contracts: {
        'L.sol': {
          UsesLib: {
            evm: {
              bytecode: {
                object: `6080${'73'}__$${'ab'.repeat(17)}$__${'00'}`,
                sourceMap: '',
                linkReferences: { 'L.sol': { Lib: [{ start: 3, length: 20 }] } },
              },
              deployedBytecode: { object: '6001' },
            },
          },
        },
      },
    })[0]!
    expect(linked.creation!.masked).toEqual([{ start: 3, length: 20 }])
    const withLib = new Uint8Array([0x60, 0x80, 0x73, ...new Uint8Array(20).fill(0xcd), 0x00, 0x01])
    expect(createSourceRegistry([linked]).matchCreation(withLib)?.name).toBe('UsesLib')
  })

  it('constructor arguments: by the ABI’s constructor entry (none: no arguments); bytes that do not decode or init code not matched: null', () => {
    const token = readStandardJson(output, input).find((c) => c.name === 'Token')!
    const code = token.creation!.code
    const node = (bytes: Uint8Array) =>
      ({
        kind: 'CREATE',
        input: bytes,
        logs: [],
        output: new Uint8Array(),
        error: undefined,
      }) as unknown as CallTraceNode
    const supply = new Uint8Array([...code, ...hexToBytes(`0x${'00'.repeat(31)}64`)])
    expect(decodeFrameAbi(node(supply), token, true).call).toEqual({
      name: 'constructor',
      signature: 'constructor(uint256)',
      args: [{ name: 'supply', type: 'uint256', value: '100' }],
    })
    // Too few bytes for a uint256: left undecoded, no throw.
    expect(decodeFrameAbi(node(new Uint8Array([...code, 1, 2])), token, true).call).toBeNull()
    // Not matched by its init code (described by its deployed code): null.
    expect(decodeFrameAbi(node(supply), token, false).call).toBeNull()
    // No constructor in the ABI: a call with no arguments.
    const bare: SourceContract = { ...token, abi: token.abi.filter((e) => e.type !== 'constructor') }
    expect(decodeFrameAbi(node(code), bare, true).call).toEqual({
      name: 'constructor',
      signature: 'constructor()',
      args: [],
    })
  })
})
