import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { encodeAbiParameters, keccak256, toHex } from 'viem'
import { withDevnetAndEdgetrace } from './devnet.js'
import { rpcResult } from './rpc.js'

/** The canonical Permit2 (the same address on every chain), checksummed as Uniswap writes it. */
export const PERMIT2_ADDRESS = '0x000000000022D473030F116dDEE9F6B43aC78BA3'
/** Permit2's EIP-712 domain on the devnet (chain 31337): name, chainId, verifyingContract; no version. */
export const PERMIT2_DOMAIN = { name: 'Permit2', chainId: 31337, verifyingContract: PERMIT2_ADDRESS }

/** The real Permit2's runtime bytecode as shipped (test/fixtures/permit2: SOURCE.txt says where from). */
const SHIPPED = readFileSync(new URL('../fixtures/permit2/Permit2.runtime.hex', import.meta.url), 'utf8').trim()

/** The domain separator Permit2 must answer at its canonical address on a chain. */
export function permit2DomainSeparator(chainId: bigint): `0x${string}` {
  return keccak256(
    encodeAbiParameters(
      [{ type: 'bytes32' }, { type: 'bytes32' }, { type: 'uint256' }, { type: 'address' }],
      [
        keccak256(toHex('EIP712Domain(string name,uint256 chainId,address verifyingContract)')),
        keccak256(toHex('Permit2')),
        chainId,
        PERMIT2_ADDRESS,
      ],
    ),
  )
}

/**
 * EIP712's immutables as the shipped bytes carry them (those of a deployment at another address on
 * chain 31337), where DOMAIN_SEPARATOR() reads them: `CHAINID PUSH32 <cached chain id> SUB PUSH2 JUMPI
 * PUSH32 <cached separator>` — the cached separator answered while block.chainid is the cached one.
 */
const CACHED = /467f(0{60}7a69)03611b69577f(d5a17abc3865df5c1400c0299bd4ce2eefc8114aec5f9d3dded1745783e57b98)9056/g

/**
 * Permit2's runtime as its constructor leaves it at the canonical address on mainnet: the two
 * immutables (_CACHED_CHAIN_ID, _CACHED_DOMAIN_SEPARATOR) set to chain 1 and the separator for the
 * canonical address there. On any other chain Permit2's own code then computes its separator from
 * block.chainid and address(this), as the canonical Permit2 does on every chain but mainnet.
 */
export function permit2Runtime(): `0x${string}` {
  const found = [...SHIPPED.matchAll(CACHED)]
  if (found.length !== 1) throw new Error(`Permit2 fixture: EIP712's immutables found ${found.length} times, not once`)
  const chainOne = 1n.toString(16).padStart(64, '0')
  const separator = permit2DomainSeparator(1n).slice(2)
  return SHIPPED.replace(CACHED, `467f${chainOne}03611b69577f${separator}9056`) as `0x${string}`
}

/**
 * A devnet (anvil + the demo's contracts and transactions) with the real Permit2 at its canonical
 * address from genesis, and an edgetrace server in front of it; `stop` ends both. Permit2 comes in
 * anvil's genesis (`--init`: its code in `alloc`, the timestamp now) rather than by anvil_setCode:
 * anvil_setCode changes the state anvil keeps for its latest block in place, so from then on anvil's
 * proofs at that block are rooted at another root than its header's and edgetrace refuses every read
 * there ("account proof does not verify against the stateRoot", seen when a newContract probe landed
 * on it). Checks the DOMAIN_SEPARATOR() Permit2 computes there: the one for the canonical address on
 * the devnet's chain, what signatures made for PERMIT2_DOMAIN verify against.
 */
export async function withPermit2Devnet(): ReturnType<typeof withDevnetAndEdgetrace> {
  const dir = mkdtempSync(join(tmpdir(), 'edgetrace-permit2-'))
  const genesis = join(dir, 'genesis.json')
  writeFileSync(
    genesis,
    JSON.stringify({
      config: { chainId: PERMIT2_DOMAIN.chainId },
      timestamp: `0x${Math.floor(Date.now() / 1000).toString(16)}`,
      alloc: { [PERMIT2_ADDRESS]: { balance: '0x0', code: permit2Runtime() } },
    }),
  )
  const env = await withDevnetAndEdgetrace({ devnet: { anvil: { args: ['--init', genesis] } } }).finally(() =>
    rmSync(dir, { recursive: true, force: true }),
  )
  try {
    const url = env.devnet.anvil.url
    const chainId = BigInt(await rpcResult(url, 'eth_chainId'))
    // DOMAIN_SEPARATOR()
    const answered = await rpcResult(url, 'eth_call', [{ to: PERMIT2_ADDRESS, data: '0x3644e515' }, 'latest'])
    if (answered !== permit2DomainSeparator(chainId)) {
      throw new Error(
        `Permit2 at ${PERMIT2_ADDRESS}: DOMAIN_SEPARATOR() ${answered} is not the one for chain ${chainId}`,
      )
    }
    return env
  } catch (err) {
    await env.stop()
    throw err
  }
}
