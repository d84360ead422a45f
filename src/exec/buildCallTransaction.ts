import type { Common } from '@ethereumjs/common'
import {
  type TypedTransaction,
  createAccessList2930Tx,
  createBlob4844Tx,
  createEOACode7702Tx,
  createFeeMarket1559Tx,
  createLegacyTx,
} from '@ethereumjs/tx'
import { type Address, bigIntToHex, createAddressFromString, createZeroAddress } from '@ethereumjs/util'
import { MessageRejectedError } from '../errors/execution.js'
import type { CallArgs } from './types.js'

export type CallTransaction = {
  tx: TypedTransaction
  from: Address
  /** True when no fee field was given: geth then runs the call with a zero base fee (NoBaseFee). */
  feeless: boolean
}

/**
 * An unsigned transaction carrying a call's arguments, whose sender is the given `from` (the way
 * ethereumjs' own client runs eth_estimateGas). The type follows the fields given, as in geth.
 *
 * A call is not a transaction: geth and the reference daemon run it without the transaction checks
 * (geth's SkipTransactionChecks, Erigon's CheckGas() false), so EIP-7825's per-transaction gas cap
 * does not apply — a call may use the whole --rpc.gascap. ethereumjs enforces that cap when the
 * transaction is made, so from Osaka on it is made under Prague's rules (the same transaction types
 * and intrinsic gas); the EVM still runs under the block's own.
 */
export function buildCallTransaction(
  args: CallArgs,
  gasLimit: bigint,
  nonce: bigint,
  blockCommon: Common,
): CallTransaction {
  let common = blockCommon
  if (common.isActivatedEIP(7825) && !common.isActivatedEIP(8037)) {
    common = common.copy()
    common.setHardfork('prague')
  }
  const from = args.from ? createAddressFromString(args.from) : createZeroAddress()
  const feeless = !args.gasPrice && !args.maxFeePerGas && !args.maxPriorityFeePerGas
  const base = {
    nonce,
    gasLimit,
    ...(args.to !== undefined ? { to: args.to } : {}),
    value: args.value ?? 0n,
    data: args.data ?? '0x',
  }
  const accessList = (args.accessList ?? []).map((e) => ({ address: e.address, storageKeys: e.storageKeys }))
  const opts = { common, freeze: false }
  let tx: TypedTransaction
  if (args.blobVersionedHashes !== undefined) {
    // geth's words for what its state transition refuses of a blob call.
    if (args.to === undefined) throw new MessageRejectedError('blob transaction of type create')
    if (args.blobVersionedHashes.length === 0) throw new MessageRejectedError('blob transaction missing blob hashes')
    tx = createBlob4844Tx(
      {
        ...base,
        maxFeePerGas: args.maxFeePerGas ?? args.gasPrice ?? 0n,
        maxPriorityFeePerGas: args.maxPriorityFeePerGas ?? args.gasPrice ?? 0n,
        maxFeePerBlobGas: args.maxFeePerBlobGas ?? 0n,
        blobVersionedHashes: args.blobVersionedHashes,
        accessList,
      } as never,
      opts,
    )
  } else if (args.authorizationList !== undefined) {
    tx = createEOACode7702Tx(
      {
        ...base,
        maxFeePerGas: args.maxFeePerGas ?? args.gasPrice ?? 0n,
        maxPriorityFeePerGas: args.maxPriorityFeePerGas ?? 0n,
        accessList,
        authorizationList: args.authorizationList.map((a) => ({
          chainId: bigIntToHex(a.chainId),
          address: a.address,
          nonce: bigIntToHex(a.nonce),
          yParity: bigIntToHex(a.yParity),
          r: bigIntToHex(a.r),
          s: bigIntToHex(a.s),
        })),
      },
      opts,
    )
  } else if (args.maxFeePerGas !== undefined || args.maxPriorityFeePerGas !== undefined) {
    tx = createFeeMarket1559Tx(
      {
        ...base,
        maxFeePerGas: args.maxFeePerGas ?? 0n,
        maxPriorityFeePerGas: args.maxPriorityFeePerGas ?? 0n,
        accessList,
      },
      opts,
    )
  } else if (args.accessList !== undefined) {
    tx = createAccessList2930Tx({ ...base, gasPrice: args.gasPrice ?? 0n, accessList }, opts)
  } else {
    tx = createLegacyTx({ ...base, gasPrice: args.gasPrice ?? 0n }, opts)
  }
  tx.getSenderAddress = () => from
  return { tx, from, feeless }
}
