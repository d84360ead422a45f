/**
 * A small bundled signature list for what a wallet or an explorer meets most: the token standards
 * (ERC-20, 721, 1155, 2612), WETH, Multicall, Safe, and Solidity's built-in errors. Anything else is
 * shown by its selector; the devnet's own contracts come from devnetSignatures.ts.
 */
export const COMMON_SIGNATURES: readonly string[] = [
  // ERC-20
  'function transfer(address to, uint256 amount)',
  'function transferFrom(address from, address to, uint256 amount)',
  'function approve(address spender, uint256 amount)',
  'function balanceOf(address owner)',
  'function allowance(address owner, address spender)',
  'function totalSupply()',
  'function decimals()',
  'function symbol()',
  'function name()',
  'function increaseAllowance(address spender, uint256 addedValue)',
  'function decreaseAllowance(address spender, uint256 subtractedValue)',
  'event Transfer(address indexed from, address indexed to, uint256 value)',
  'event Approval(address indexed owner, address indexed spender, uint256 value)',
  // ERC-2612
  'function permit(address owner, address spender, uint256 value, uint256 deadline, uint8 v, bytes32 r, bytes32 s)',
  'function nonces(address owner)',
  // ERC-721
  'function safeTransferFrom(address from, address to, uint256 tokenId)',
  'function safeTransferFrom(address from, address to, uint256 tokenId, bytes data)',
  'function setApprovalForAll(address operator, bool approved)',
  'function ownerOf(uint256 tokenId)',
  'function getApproved(uint256 tokenId)',
  'function isApprovedForAll(address owner, address operator)',
  'function tokenURI(uint256 tokenId)',
  'event Transfer(address indexed from, address indexed to, uint256 indexed tokenId)',
  'event Approval(address indexed owner, address indexed approved, uint256 indexed tokenId)',
  'event ApprovalForAll(address indexed owner, address indexed operator, bool approved)',
  // ERC-1155
  'function safeTransferFrom(address from, address to, uint256 id, uint256 amount, bytes data)',
  'function safeBatchTransferFrom(address from, address to, uint256[] ids, uint256[] amounts, bytes data)',
  'function balanceOfBatch(address[] accounts, uint256[] ids)',
  'event TransferSingle(address indexed operator, address indexed from, address indexed to, uint256 id, uint256 value)',
  'event TransferBatch(address indexed operator, address indexed from, address indexed to, uint256[] ids, uint256[] values)',
  'event URI(string value, uint256 indexed id)',
  // ERC-165, receivers
  'function supportsInterface(bytes4 interfaceId)',
  'function onERC721Received(address operator, address from, uint256 tokenId, bytes data)',
  'function onERC1155Received(address operator, address from, uint256 id, uint256 value, bytes data)',
  // WETH
  'function deposit()',
  'function withdraw(uint256 wad)',
  'event Deposit(address indexed dst, uint256 wad)',
  'event Withdrawal(address indexed src, uint256 wad)',
  // Multicall3
  'function aggregate((address,bytes)[] calls)',
  'function tryAggregate(bool requireSuccess, (address,bytes)[] calls)',
  // Ownable, proxies
  'function owner()',
  'function transferOwnership(address newOwner)',
  'function renounceOwnership()',
  'function upgradeTo(address newImplementation)',
  'function upgradeToAndCall(address newImplementation, bytes data)',
  'event OwnershipTransferred(address indexed previousOwner, address indexed newOwner)',
  'event Upgraded(address indexed implementation)',
  // Solidity's revert data
  'error Error(string reason)',
  'error Panic(uint256 code)',
]
