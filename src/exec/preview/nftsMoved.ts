import type { Hex } from '../../types/hex.js'
import { addressTopic } from './abiWords.js'
import type { SimulatedLog } from '../createSimulationLogRecorder.js'
import { TRANSFER_TOPIC } from './tokensMoved.js'

/** keccak256 of ERC-1155's `TransferSingle(address,address,address,uint256,uint256)`. */
export const TRANSFER_SINGLE_TOPIC = '0xc3d58168c5ae7397731d063d5bbf3d657854427343f4c083240f7aacaa2d0f62'
/** keccak256 of ERC-1155's `TransferBatch(address,address,address,uint256[],uint256[])`. */
export const TRANSFER_BATCH_TOPIC = '0x4a39dc06d4c0dbc64b70af90fd698a233a518aa5d07e595d983b8c0526c8f7fb'

/** A token id of a contract whose holding by the account may have moved. */
export type NftMoved = { address: Hex; standard: 'erc721' | 'erc1155'; tokenId: bigint }

const wordAt = (hex: string, i: number): bigint | undefined => {
  const w = hex.slice(i * 64, i * 64 + 64)
  return w.length === 64 ? BigInt(`0x${w}`) : undefined
}

/** The `uint256[]` at a head slot of ABI data (hex without 0x); empty where it does not decode. */
function uintArray(hex: string, slot: number): bigint[] {
  const offset = wordAt(hex, slot)
  if (offset === undefined || offset % 32n !== 0n || offset * 2n >= BigInt(hex.length)) return []
  const start = Number(offset / 32n)
  const length = wordAt(hex, start)
  if (length === undefined || BigInt(start + 1) + length > BigInt(hex.length / 64)) return []
  return Array.from({ length: Number(length) }, (_, i) => wordAt(hex, start + 1 + i)!)
}

/**
 * The NFTs the logs say the account may have gained or lost, in order of first mention: an
 * ERC-721 Transfer (four topics, the token id the last) from or to the account, and every id of an
 * ERC-1155 TransferSingle or TransferBatch from or to it. The logs only say where to look; the
 * holdings are read (`ownerOf`, `balanceOf(account, id)`).
 */
export function nftsMoved(logs: readonly SimulatedLog[], account: Hex): NftMoved[] {
  const who = addressTopic(account)
  const out = new Map<string, NftMoved>()
  const add = (address: Hex, standard: NftMoved['standard'], tokenId: bigint) => {
    const key = `${address.toLowerCase()}/${standard}/${tokenId}`
    if (!out.has(key)) out.set(key, { address: address.toLowerCase() as Hex, standard, tokenId })
  }
  for (const log of logs) {
    const topics = log.topics.map((t) => t.toLowerCase())
    const [topic] = topics
    if (topic === TRANSFER_TOPIC && topics.length === 4 && (topics[1] === who || topics[2] === who)) {
      add(log.address, 'erc721', BigInt(topics[3]!))
    }
    const single = topic === TRANSFER_SINGLE_TOPIC
    if ((single || topic === TRANSFER_BATCH_TOPIC) && topics.length === 4 && (topics[2] === who || topics[3] === who)) {
      const data = log.data.slice(2)
      const ids = single ? [wordAt(data, 0)].filter((id) => id !== undefined) : uintArray(data, 0)
      for (const id of ids) add(log.address, 'erc1155', id)
    }
  }
  return [...out.values()]
}
