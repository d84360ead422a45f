import type { RpcCaller } from './rpcCaller.js'

/** Account: one address at one block (a number or tag), each field from the verified eth_* method. */
export class AccountResolver {
  constructor(
    private readonly rpc: RpcCaller,
    private readonly addr: string,
    private readonly block: string,
  ) {}
  address() {
    return this.addr.toLowerCase()
  }
  balance() {
    return this.rpc('eth_getBalance', [this.addr, this.block])
  }
  transactionCount() {
    return this.rpc('eth_getTransactionCount', [this.addr, this.block])
  }
  code() {
    return this.rpc('eth_getCode', [this.addr, this.block])
  }
  storage({ slot }: { slot: string }) {
    return this.rpc('eth_getStorageAt', [this.addr, slot, this.block])
  }
}
