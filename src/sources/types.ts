/** One source file of a compilation: its path as the compiler named it, and its text when known. */
export type SourceFile = {
  /** The source unit's name in the compilation (`src/Token.sol`). */
  path: string
  /** Its text; undefined when the build output did not carry it. */
  content: string | undefined
}

/** A byte range of runtime code that the compiler leaves for the deployer to fill (immutables, linked libraries). */
export type CodeRange = {
  /** Offset in the runtime code. */
  start: number
  /** Bytes. */
  length: number
}

/** One ABI parameter. */
export type AbiParam = {
  /** Its type (`uint256`, `tuple[]`…). */
  type: string
  /** Its name, when it has one. */
  name?: string
  /** A tuple's members. */
  components?: AbiParam[]
}

/** One ABI entry, as much of it as source-level debugging reads. */
export type AbiEntry = {
  /** `function`, `event`, `error`, `constructor`… */
  type: string
  /** The function's, event's or error's name. */
  name?: string
  /** Its parameters. */
  inputs?: AbiParam[]
  /** A function's return values. */
  outputs?: AbiParam[]
}

/**
 * One compiled contract in the neutral model every reader produces (solc standard JSON, Foundry,
 * Hardhat): its runtime code and what maps that code back to its sources.
 */
export type SourceContract = {
  /** The contract's name. */
  name: string
  /** The source unit that declares it. */
  file: string
  /** The deployed (runtime) bytecode as compiled: immutables zero, libraries as placeholders (zeroed here). */
  runtime: Uint8Array
  /** solc's compressed runtime source map (`s:l:f:j:m;…`); '' when the build output had none. */
  sourceMap: string
  /** Ranges of `runtime` filled at deployment: immutables and linked-library addresses. */
  masked: CodeRange[]
  /** Its ABI ([] when the build output had none). */
  abi: AbiEntry[]
  /** solc's storageLayout, as given (`{storage, types}`; the source tracer names storage slots with it); undefined when absent. */
  storageLayout: unknown
  /** The compilation's sources by solc source id (the `f` of the source map). */
  sources: Map<number, SourceFile>
  /**
   * The creation (init) code as compiled (`evm.bytecode`), when the build output had it: what a
   * creation transaction or a CREATE/CREATE2 frame runs, its constructor arguments appended after it.
   */
  creation?: CreationCode
}

/** A contract's creation bytecode and what maps it back to its sources (the constructor's lines). */
export type CreationCode = {
  /** The init code as compiled: libraries as placeholders (zeroed here); no constructor arguments. */
  code: Uint8Array
  /** solc's compressed source map of the creation bytecode; '' when the build output had none. */
  sourceMap: string
  /** Ranges of `code` that may differ in what runs: linked libraries, and the metadata of the runtime code it carries. */
  masked: CodeRange[]
}

/** What a lookup of a contract's sources elsewhere (Sourcify) gave: the contract matched to the code, or why not. */
export type SourceLookupResult = { contract: SourceContract } | { note: string }

/**
 * Looks up the sources of code no registered build output matched, by the address it ran at and
 * that code (the verified code: a lookup matches what it is given against it, never trusts the address).
 */
export type SourceLookup = (address: string, code: Uint8Array) => Promise<SourceLookupResult>
