import type { TrustReport } from '../views/trustPanel.js'

// edgetrace_previewTransactions' and edgetrace_previewTypedData's answers as the page reads them
// (quantities as hex strings; docs/preview.md).

export type PreviewToken = {
  address: string
  standard: 'native' | 'erc20' | 'erc721' | 'erc1155' | 'permit2'
  symbol: string | null
  name: string | null
  decimals: number | null
}

/** Before, after and their difference (`-0x…` below zero). */
export type Change = { pre: string; post: string; diff: string }

export type AssetChange = { token: PreviewToken; tokenId?: string; value: Change | null; gasPaid?: string }

export type PreviewApproval = {
  token: PreviewToken
  standard: 'erc20' | 'erc721' | 'erc1155' | 'permit2'
  spender: string | null
  kind: 'allowance' | 'approve' | 'approvalForAll' | 'permit2'
  tokenId?: string
  pre: string | boolean | null
  post: string | boolean | null
  expiration?: { pre: string | null; post: string | null }
}

/** A signal: its kind, severity and the kind's own fields (docs/preview.md lists them). */
export type PreviewSignal = { kind: string; severity: 'info' | 'warning' | 'danger' } & Record<string, unknown>

/** A call's revert: Error(string), Panic(uint256), a custom error where named, else raw. */
export type PreviewRevert = {
  type?: string
  message?: string
  code?: string
  data?: string
  name?: string
  signature?: string
  args?: unknown
}

export type PreviewedCall = {
  status: 'success' | 'failure'
  gasUsed: string
  returnData: string
  logs: { address: string; topics: string[]; data: string }[]
  /** The function called, where the daemon's table (or the app's ABIs) knows it. */
  function?: { selector: string; name: string; signature: string } | null
  error: { message: string; code: number } | null
  revert: PreviewRevert | null
}

export type TransactionsPreview = {
  block: { number: string; hash: string; transactionIndex?: number }
  trust: TrustReport
  account: string
  calls: PreviewedCall[]
  assetChanges: AssetChange[]
  approvals: PreviewApproval[]
  signals: PreviewSignal[]
}

export type PermitGrant = {
  token: PreviewToken
  amount: string
  expiration: string | null
  current: { amount: string | null; expiration: string | null; nonce: string | null }
  nonce: { signed: string; current: string | null; valid: boolean | null }
  balance: string | null
  atRisk: string | null
  worstCase: { status: 'success' | 'failure'; balanceAfter: string | null; loss: string | null } | null
}

export type TypedDataPreview = {
  recognized: boolean
  kind?: 'eip2612' | 'dai' | 'permit2' | 'permit2Transfer'
  account: string
  owner?: string
  spender?: string
  typedData: { primaryType: string; domain: Record<string, unknown>; message: Record<string, unknown> }
  block?: { number: string; hash: string }
  trust: TrustReport
  deadline?: { value: string | null; blockTime: string; passed: boolean }
  grants?: PermitGrant[]
  usable?: boolean
  problems?: string[]
  signals?: PreviewSignal[]
}
