import { encodeCall, encodeDeploy } from './abi.js'
import {
  bytesToHex,
  eoaCode7702AuthorizationListBytesItemToJSON,
  eoaCode7702SignAuthorization,
  hexToBytes,
  privateToAddress,
} from '@ethereumjs/util'
import artifactsJson from './artifacts.json' with { type: 'json' }
import { type AnvilInstance, type StartAnvilParameters, startAnvil } from './startAnvil.js'
import { type DevnetBeaconNode, startDevnetBeacon } from './startDevnetBeacon.js'
import { quantity } from '../../utils/hex.js'
import type { Hex } from '../../types/hex.js'

export type DevnetTransaction = {
  label: string
  hash: Hex
  blockNumber: number
  type: number
  status: 'success' | 'reverted'
}

export type Devnet = {
  anvil: AnvilInstance
  accounts: Hex[]
  contracts: Record<string, Hex>
  transactions: DevnetTransaction[]
  /** With `beacon`: a beacon chain following anvil (every block anvil mines gets a slot), its light-client endpoints on loopback. */
  beacon?: DevnetBeaconNode | undefined
  stop(): Promise<void>
}

type Artifacts = { contracts: Record<string, { bytecode: Hex }> }

/** Runtime PUSH1 3 JUMP: a jump to a byte that is no JUMPDEST. */
const BAD_JUMP_INIT = '0x626003566000526003601df3' as const
const ONE_ETHER = 10n ** 18n

async function call<result>(url: string, method: string, params: unknown[] = []): Promise<result> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  })
  const body = (await res.json()) as { result?: result; error?: { message: string } }
  if (body.error) throw new Error(`${method}: ${body.error.message}`)
  return body.result as result
}

/** anvil's well-known dev account 4 (test mnemonic): the EOA that delegates to Scenarios (EIP-7702). */
const DELEGATING_KEY = '0x47e179ec197488593b187f80a00eb0da91f1b9d0b13f8733639f19c30a34926a'
/** anvil's well-known dev account 5: a second EOA, delegated to the helper instance of Scenarios. */
const SECOND_DELEGATING_KEY = '0x8b3a350cf5c34c9194ca85829a2df0ec3153be0318b5e2d3348e872092edffba'

/**
 * The embedded devnet of `npm start` (and a fixture for tests): a real anvil node with demo
 * contracts deployed and a set of labelled transactions covering what a tracer must handle —
 * nested calls of every kind, creations, self-destructs, logs in reverted frames, reverts of every
 * kind, transient storage, refunds, precompiles, an out-of-gas child, every transaction type,
 * several transactions in one block. Everything starts at block 3: anvil's genesis state does not
 * verify, so blocks 1 and 2 are left empty — state at the start of block 1 is genesis's, and
 * explorers (Otterscan) ask for the state at the start of the block before a transaction's.
 */
export async function startDevnet(
  opts: { anvil?: StartAnvilParameters; log?: (line: string) => void; beacon?: boolean } = {},
): Promise<Devnet> {
  const artifacts = artifactsJson as unknown as Artifacts
  const anvil = await startAnvil(opts.anvil)
  const url = anvil.url
  try {
    const accounts = await call<Hex[]>(url, 'eth_accounts')
    const [alice, bob, carol] = accounts as [Hex, Hex, Hex]
    const transactions: DevnetTransaction[] = []
    await call(url, 'evm_mine')
    await call(url, 'evm_mine')

    type Receipt = { status: string; blockNumber: string; contractAddress: Hex | null; type: string }
    async function receipt(hash: Hex): Promise<Receipt> {
      for (let i = 0; i < 100; i++) {
        const r = await call<Receipt | null>(url, 'eth_getTransactionReceipt', [hash])
        if (r) return r
        await new Promise((resolve) => setTimeout(resolve, 20))
      }
      throw new Error(`devnet transaction ${hash} was not mined`)
    }
    async function send(label: string, tx: Record<string, unknown>, expect: 'success' | 'reverted' = 'success') {
      const hash = await call<Hex>(url, 'eth_sendTransaction', [{ from: alice, ...tx }])
      const r = await receipt(hash)
      const status = r.status === '0x1' ? 'success' : 'reverted'
      if (status !== expect) throw new Error(`devnet transaction "${label}" ended ${status}, expected ${expect}`)
      transactions.push({ label, hash, blockNumber: Number(r.blockNumber), type: Number(r.type), status })
      return r
    }
    async function deploy(label: string, data: Hex) {
      const r = await send(`deploy ${label}`, { data })
      return r.contractAddress!
    }

    const contracts: Record<string, Hex> = {}
    contracts.Token = await deploy('Token', encodeDeploy(artifacts.contracts.Token!.bytecode, [1_000_000n * ONE_ETHER]))
    contracts.Scenarios = await deploy('Scenarios', artifacts.contracts.Scenarios!.bytecode)
    contracts.Helper = await deploy('Scenarios (helper instance)', artifacts.contracts.Scenarios!.bytecode)
    contracts.Inspector = await deploy('Inspector', artifacts.contracts.Inspector!.bytecode)
    contracts.BadJump = await deploy('BadJump (raw code)', BAD_JUMP_INIT)
    const {
      Token: token,
      Scenarios: scenarios,
      Helper: helper,
      Inspector: inspector,
      BadJump: badJump,
    } = contracts as Record<string, Hex>
    const at = (to: Hex, signature: string, args: (bigint | number | boolean | Hex)[] = []) => ({
      to,
      data: encodeCall(signature, args),
    })
    const salt = `0x${'5a'.repeat(32)}` as const
    const revertGas = { gas: quantity(300_000) }

    await send('token transfer (legacy, type 0)', {
      ...at(token, 'transfer(address,uint256)', [bob, 1000n * ONE_ETHER]),
      type: '0x0',
      gasPrice: quantity(3_000_000_000n),
    })
    await send('token approve (EIP-1559, type 2)', {
      ...at(token, 'approve(address,uint256)', [scenarios, 500n * ONE_ETHER]),
      maxFeePerGas: quantity(3_000_000_000n),
      maxPriorityFeePerGas: quantity(1_000_000_000n),
    })
    await send(
      'nested token calls (transferFrom, transfer, balanceOf)',
      at(scenarios, 'pull(address,address,uint256)', [token, alice, 100n * ONE_ETHER]),
    )
    await send('recursion 5 deep', at(scenarios, 'recurse(uint256)', [5]))
    await send('DELEGATECALL', at(scenarios, 'delegate(address)', [helper]))
    await send('CALLCODE', at(scenarios, 'callcode(address)', [helper]))
    await send('STATICCALL, and a write in a static frame that fails', at(scenarios, 'staticPeek(address)', [helper]))
    await send('CREATE', at(scenarios, 'create(uint256)', [42]))
    await send('CREATE2', at(scenarios, 'create2(uint256,bytes32)', [7, salt]))
    await send('CREATE whose constructor reverts', at(scenarios, 'createFailing()'))
    await send(
      'CREATE2 then SELFDESTRUCT in one transaction',
      at(scenarios, 'createAndDestroy(bytes32)', [`0x${'6b'.repeat(32)}`]),
    )
    await send('log in a child frame that reverts', at(scenarios, 'logThenRevert(uint256)', [1]))
    await send('revert with Error(string)', { ...at(scenarios, 'revertWithReason()'), ...revertGas }, 'reverted')
    await send(
      'revert with a custom error',
      { ...at(scenarios, 'revertWithCustom(uint256)', [7]), ...revertGas },
      'reverted',
    )
    await send('panic: division by zero', { ...at(scenarios, 'panicDivide(uint256)', [0]), ...revertGas }, 'reverted')
    await send('INVALID opcode', { ...at(scenarios, 'invalidOpcode()'), ...revertGas }, 'reverted')
    await send('bad jump in a child call', at(scenarios, 'callBadJump(address)', [badJump]))
    await send('bad jump at the top', { to: badJump, data: '0x', ...revertGas }, 'reverted')
    await send('transient storage', at(scenarios, 'transient(uint256)', [5]))
    await send('storage writes', at(scenarios, 'fill(uint256)', [20]))
    await send('storage clears (refunds)', at(scenarios, 'clear()'))
    await send('value transfer to an empty account through a contract', {
      ...at(scenarios, 'pay(address,uint256)', [`0x${'ee'.repeat(20)}`, 1]),
      value: quantity(1),
    })
    await send('precompiles', at(scenarios, 'precompiles()'))
    await send('child out of gas, parent continues', at(scenarios, 'childOutOfGas()'))
    await send('EIP-2930 access list (type 1)', {
      ...at(scenarios, 'increment()'),
      type: '0x1',
      gasPrice: quantity(3_000_000_000n),
      accessList: [{ address: scenarios, storageKeys: [`0x${'0'.repeat(64)}`] }],
    })
    await send('plain ether transfer', { to: carol, value: quantity(ONE_ETHER) })
    // EIP-7702: anvil's dev account 4 delegates to Scenarios, in the same transaction that calls it
    // (the call runs Scenarios' code on the EOA's storage); then a plain call to the delegated EOA.
    // Authorizations are signed here with anvil's dev keys (eth_sendTransaction has anvil sign the
    // transaction itself, from alice).
    const authorize = (key: Hex, address: Hex, nonce: bigint) =>
      eoaCode7702AuthorizationListBytesItemToJSON(
        eoaCode7702SignAuthorization(
          { chainId: quantity(anvil.chainId) as Hex, address, nonce: quantity(nonce) as Hex },
          hexToBytes(key),
        ),
      )
    const eoa = (key: Hex) => bytesToHex(privateToAddress(hexToBytes(key))) as Hex
    async function sendType4(label: string, tx: Record<string, unknown>) {
      const r = await send(label, tx)
      if (r.type !== '0x4') throw new Error(`devnet transaction "${label}" was mined as type ${r.type}, expected 0x4`)
    }
    const delegated = eoa(DELEGATING_KEY)
    contracts.DelegatedEOA = delegated
    await sendType4('EIP-7702 (type 4): delegate an EOA to Scenarios and call it', {
      ...at(delegated, 'recurse(uint256)', [2]),
      authorizationList: [authorize(DELEGATING_KEY, scenarios, 0n)],
    })
    await send('call into an EIP-7702-delegated EOA', at(delegated, 'increment()'))
    // A second type-4 transaction, into the already-delegated EOA: it delegates dev account 5 to the
    // helper instance, and the first EOA's code (Scenarios.delegate) DELEGATECALLs account 5 — whose
    // delegation resolves to the helper's code, run on the first EOA's storage (its counter).
    const secondDelegated = eoa(SECOND_DELEGATING_KEY)
    contracts.SecondDelegatedEOA = secondDelegated
    await sendType4(
      'EIP-7702 (type 4): call a delegated EOA that DELEGATECALLs an EOA delegated in the same transaction',
      {
        ...at(delegated, 'delegate(address)', [secondDelegated]),
        authorizationList: [authorize(SECOND_DELEGATING_KEY, helper, 0n)],
      },
    )
    await send('fill the Inspector', at(inspector, 'setValues(uint256)', [40]))

    // Several transactions in one block.
    await call(url, 'evm_setAutomine', [false])
    const pending: [string, Hex][] = []
    for (const [label, tx] of [
      ['block of several: ether transfer', { from: bob, to: carol, value: quantity(ONE_ETHER / 10n) }],
      [
        'block of several: token transfer',
        { from: bob, ...at(token, 'transfer(address,uint256)', [carol, ONE_ETHER]) },
      ],
      ['block of several: increment', { from: carol, ...at(scenarios, 'increment()') }],
      [
        'block of several: recursion',
        { from: alice, ...at(scenarios, 'recurse(uint256)', [3]), gas: quantity(500_000) },
      ],
    ] as const) {
      pending.push([label, await call<Hex>(url, 'eth_sendTransaction', [tx])])
    }
    await call(url, 'evm_mine')
    await call(url, 'evm_setAutomine', [true])
    for (const [label, hash] of pending) {
      const r = await receipt(hash)
      if (r.status !== '0x1') throw new Error(`devnet transaction "${label}" failed`)
      transactions.push({ label, hash, blockNumber: Number(r.blockNumber), type: Number(r.type), status: 'success' })
    }
    opts.log?.(`devnet: ${Object.keys(contracts).length} contracts, ${transactions.length} transactions`)
    const beacon = opts.beacon ? await startDevnetBeacon({ executionUrl: url }) : undefined
    const stop = async () => {
      await beacon?.close()
      await anvil.stop()
    }
    return { anvil, accounts, contracts, transactions, beacon, stop }
  } catch (err) {
    await anvil.stop()
    throw err
  }
}
