import { encodeCall } from '../../src/node/devnet/abi.js'
import { compileSolidity } from './compileSolidity.js'
import { rpcResult, waitForReceipt } from './rpc.js'

type Address = `0x${string}`

/**
 * The token shapes a wallet's preview meets, written for these tests: a plain ERC-20, a WETH9-like
 * wrapper (Deposit/Withdrawal), a fee-on-transfer token (1% burned), a rebasing token (balances are
 * shares × pooled / total shares), a token whose transfer/approve return nothing (USDT-like), an
 * ERC-721 with mint, an ERC-1155 with batch transfers, a constant-product pair and its router (the
 * router creates the pairs; swaps pull with transferFrom and price from the pair's balance, so they
 * work with fee-on-transfer tokens), a Multicall3-like aggregator and a minimal smart account.
 * Test contracts: anyone may mint, and the NFT contracts call no receiver hooks.
 */
export const PREVIEW_SCENARIO_SOURCE = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

contract PlainToken {
    string public name;
    string public symbol;
    uint8 public constant decimals = 18;
    uint256 public totalSupply;
    mapping(address => uint256) internal balances;
    mapping(address => mapping(address => uint256)) public allowance;
    event Transfer(address indexed from, address indexed to, uint256 value);
    event Approval(address indexed owner, address indexed spender, uint256 value);

    constructor(string memory name_, string memory symbol_) {
        name = name_;
        symbol = symbol_;
    }
    function balanceOf(address who) public view virtual returns (uint256) {
        return balances[who];
    }
    function mint(address to, uint256 value) external virtual {
        totalSupply += value;
        balances[to] += value;
        emit Transfer(address(0), to, value);
    }
    function transfer(address to, uint256 value) external virtual returns (bool) {
        _move(msg.sender, to, value);
        return true;
    }
    function approve(address spender, uint256 value) external virtual returns (bool) {
        allowance[msg.sender][spender] = value;
        emit Approval(msg.sender, spender, value);
        return true;
    }
    function transferFrom(address from, address to, uint256 value) external virtual returns (bool) {
        _spend(from, value);
        _move(from, to, value);
        return true;
    }
    function _spend(address from, uint256 value) internal {
        uint256 allowed = allowance[from][msg.sender];
        if (allowed != type(uint256).max) {
            require(allowed >= value, "allowance");
            allowance[from][msg.sender] = allowed - value;
        }
    }
    function _move(address from, address to, uint256 value) internal virtual {
        require(balances[from] >= value, "balance");
        balances[from] -= value;
        balances[to] += value;
        emit Transfer(from, to, value);
    }
}

/** 1% of every transfer is burned: the recipient gets 99%. */
contract FeeToken is PlainToken {
    constructor() PlainToken("Fee Token", "FEE") {}
    function _move(address from, address to, uint256 value) internal override {
        require(balances[from] >= value, "balance");
        uint256 fee = value / 100;
        balances[from] -= value;
        balances[to] += value - fee;
        totalSupply -= fee;
        emit Transfer(from, to, value - fee);
        emit Transfer(from, address(0), fee);
    }
}

/** Balances are shares of a pool whose size rebase() sets; Transfer says the amount asked, the shares moved round down. */
contract RebaseToken is PlainToken {
    mapping(address => uint256) public sharesOf;
    uint256 public totalShares;
    uint256 public pooled;
    constructor() PlainToken("Rebase Token", "REB") {}
    function balanceOf(address who) public view override returns (uint256) {
        return totalShares == 0 ? 0 : sharesOf[who] * pooled / totalShares;
    }
    function mint(address to, uint256 value) external override {
        uint256 shares = totalShares == 0 ? value : value * totalShares / pooled;
        sharesOf[to] += shares;
        totalShares += shares;
        pooled += value;
        totalSupply = pooled;
        emit Transfer(address(0), to, value);
    }
    /** Sets the pool's size: every balance scales by newPooled / pooled, and no event names a holder. */
    function rebase(uint256 newPooled) external {
        pooled = newPooled;
        totalSupply = newPooled;
    }
    function _move(address from, address to, uint256 value) internal override {
        uint256 shares = value * totalShares / pooled;
        require(sharesOf[from] >= shares, "balance");
        sharesOf[from] -= shares;
        sharesOf[to] += shares;
        emit Transfer(from, to, value);
    }
}

/** USDT's shape: transfer, transferFrom and approve return nothing. */
contract NoBoolToken {
    string public constant name = "No Bool Token";
    string public constant symbol = "NOB";
    uint8 public constant decimals = 6;
    mapping(address => uint256) public balanceOf;
    mapping(address => mapping(address => uint256)) public allowance;
    event Transfer(address indexed from, address indexed to, uint256 value);
    event Approval(address indexed owner, address indexed spender, uint256 value);
    function mint(address to, uint256 value) external {
        balanceOf[to] += value;
        emit Transfer(address(0), to, value);
    }
    function transfer(address to, uint256 value) external {
        _move(msg.sender, to, value);
    }
    function approve(address spender, uint256 value) external {
        allowance[msg.sender][spender] = value;
        emit Approval(msg.sender, spender, value);
    }
    function transferFrom(address from, address to, uint256 value) external {
        require(allowance[from][msg.sender] >= value, "allowance");
        allowance[from][msg.sender] -= value;
        _move(from, to, value);
    }
    function _move(address from, address to, uint256 value) internal {
        require(balanceOf[from] >= value, "balance");
        balanceOf[from] -= value;
        balanceOf[to] += value;
        emit Transfer(from, to, value);
    }
}

/** WETH9's shape: Deposit/Withdrawal events (no Transfer on wrap or unwrap), ether sent to it wraps. */
contract WrappedEther {
    string public constant name = "Wrapped Ether";
    string public constant symbol = "WETH";
    uint8 public constant decimals = 18;
    mapping(address => uint256) public balanceOf;
    mapping(address => mapping(address => uint256)) public allowance;
    event Transfer(address indexed from, address indexed to, uint256 value);
    event Approval(address indexed owner, address indexed spender, uint256 value);
    event Deposit(address indexed dst, uint256 wad);
    event Withdrawal(address indexed src, uint256 wad);
    receive() external payable {
        deposit();
    }
    function deposit() public payable {
        balanceOf[msg.sender] += msg.value;
        emit Deposit(msg.sender, msg.value);
    }
    function withdraw(uint256 wad) external {
        require(balanceOf[msg.sender] >= wad, "balance");
        balanceOf[msg.sender] -= wad;
        (bool ok, ) = msg.sender.call{value: wad}("");
        require(ok, "send failed");
        emit Withdrawal(msg.sender, wad);
    }
    function approve(address spender, uint256 value) external returns (bool) {
        allowance[msg.sender][spender] = value;
        emit Approval(msg.sender, spender, value);
        return true;
    }
    function transfer(address to, uint256 value) external returns (bool) {
        return transferFrom(msg.sender, to, value);
    }
    function transferFrom(address from, address to, uint256 value) public returns (bool) {
        require(balanceOf[from] >= value, "balance");
        if (from != msg.sender && allowance[from][msg.sender] != type(uint256).max) {
            require(allowance[from][msg.sender] >= value, "allowance");
            allowance[from][msg.sender] -= value;
        }
        balanceOf[from] -= value;
        balanceOf[to] += value;
        emit Transfer(from, to, value);
        return true;
    }
}

contract Nft721 {
    string public constant name = "Preview Kitties";
    string public constant symbol = "KITTY";
    uint256 public nextId = 1;
    mapping(uint256 => address) internal owners;
    mapping(address => uint256) public balanceOf;
    mapping(uint256 => address) public getApproved;
    mapping(address => mapping(address => bool)) public isApprovedForAll;
    event Transfer(address indexed from, address indexed to, uint256 indexed tokenId);
    event Approval(address indexed owner, address indexed approved, uint256 indexed tokenId);
    event ApprovalForAll(address indexed owner, address indexed operator, bool approved);
    function ownerOf(uint256 id) public view returns (address owner) {
        owner = owners[id];
        require(owner != address(0), "no such token");
    }
    function tokenURI(uint256 id) external pure returns (string memory) {
        return string(abi.encodePacked("kitty:", bytes32(id)));
    }
    function supportsInterface(bytes4 id) external pure returns (bool) {
        return id == 0x80ac58cd || id == 0x01ffc9a7;
    }
    function mint(address to) external returns (uint256 id) {
        id = nextId++;
        owners[id] = to;
        balanceOf[to] += 1;
        emit Transfer(address(0), to, id);
    }
    function approve(address to, uint256 id) external {
        address owner = ownerOf(id);
        require(msg.sender == owner || isApprovedForAll[owner][msg.sender], "not owner");
        getApproved[id] = to;
        emit Approval(owner, to, id);
    }
    function setApprovalForAll(address operator, bool approved) external {
        isApprovedForAll[msg.sender][operator] = approved;
        emit ApprovalForAll(msg.sender, operator, approved);
    }
    function transferFrom(address from, address to, uint256 id) public {
        require(ownerOf(id) == from, "not from");
        require(
            msg.sender == from || getApproved[id] == msg.sender || isApprovedForAll[from][msg.sender],
            "not allowed"
        );
        delete getApproved[id];
        owners[id] = to;
        balanceOf[from] -= 1;
        balanceOf[to] += 1;
        emit Transfer(from, to, id);
    }
    function safeTransferFrom(address from, address to, uint256 id) external {
        transferFrom(from, to, id);
    }
}

contract Multi1155 {
    mapping(uint256 => mapping(address => uint256)) internal balances;
    mapping(address => mapping(address => bool)) public isApprovedForAll;
    event TransferSingle(address indexed operator, address indexed from, address indexed to, uint256 id, uint256 value);
    event TransferBatch(address indexed operator, address indexed from, address indexed to, uint256[] ids, uint256[] values);
    event ApprovalForAll(address indexed account, address indexed operator, bool approved);
    function supportsInterface(bytes4 id) external pure returns (bool) {
        return id == 0xd9b67a26 || id == 0x01ffc9a7;
    }
    function balanceOf(address who, uint256 id) external view returns (uint256) {
        return balances[id][who];
    }
    function uri(uint256) external pure returns (string memory) {
        return "multi:{id}";
    }
    function mint(address to, uint256 id, uint256 value) external {
        balances[id][to] += value;
        emit TransferSingle(msg.sender, address(0), to, id, value);
    }
    function setApprovalForAll(address operator, bool approved) external {
        isApprovedForAll[msg.sender][operator] = approved;
        emit ApprovalForAll(msg.sender, operator, approved);
    }
    function safeTransferFrom(address from, address to, uint256 id, uint256 value, bytes calldata) external {
        require(from == msg.sender || isApprovedForAll[from][msg.sender], "not allowed");
        require(balances[id][from] >= value, "balance");
        balances[id][from] -= value;
        balances[id][to] += value;
        emit TransferSingle(msg.sender, from, to, id, value);
    }
    function safeBatchTransferFrom(
        address from,
        address to,
        uint256[] calldata ids,
        uint256[] calldata values,
        bytes calldata
    ) external {
        require(from == msg.sender || isApprovedForAll[from][msg.sender], "not allowed");
        require(ids.length == values.length, "lengths");
        for (uint256 i = 0; i < ids.length; i++) {
            require(balances[ids[i]][from] >= values[i], "balance");
            balances[ids[i]][from] -= values[i];
            balances[ids[i]][to] += values[i];
        }
        emit TransferBatch(msg.sender, from, to, ids, values);
    }
}

interface IERC20Like {
    function balanceOf(address) external view returns (uint256);
}

/** Calls a token's transfer/transferFrom and accepts no return data or true (tokens that return no bool). */
library SafeToken {
    function send(address token, bytes memory data) internal {
        (bool ok, bytes memory out) = token.call(data);
        require(ok && (out.length == 0 || abi.decode(out, (bool))), "token transfer failed");
    }
}

/** A constant-product pair (0.3% fee): swap sends the outputs, then checks k on its balances. */
contract Pair {
    address public immutable token0;
    address public immutable token1;
    uint256 public reserve0;
    uint256 public reserve1;
    event Swap(address indexed sender, uint256 amount0In, uint256 amount1In, uint256 amount0Out, uint256 amount1Out, address indexed to);
    event Sync(uint256 reserve0, uint256 reserve1);
    constructor(address a, address b) {
        (token0, token1) = a < b ? (a, b) : (b, a);
    }
    function sync() public {
        reserve0 = IERC20Like(token0).balanceOf(address(this));
        reserve1 = IERC20Like(token1).balanceOf(address(this));
        emit Sync(reserve0, reserve1);
    }
    function swap(uint256 amount0Out, uint256 amount1Out, address to) external {
        require(amount0Out < reserve0 && amount1Out < reserve1, "liquidity");
        if (amount0Out > 0) SafeToken.send(token0, abi.encodeWithSignature("transfer(address,uint256)", to, amount0Out));
        if (amount1Out > 0) SafeToken.send(token1, abi.encodeWithSignature("transfer(address,uint256)", to, amount1Out));
        uint256 balance0 = IERC20Like(token0).balanceOf(address(this));
        uint256 balance1 = IERC20Like(token1).balanceOf(address(this));
        uint256 in0 = balance0 > reserve0 - amount0Out ? balance0 - (reserve0 - amount0Out) : 0;
        uint256 in1 = balance1 > reserve1 - amount1Out ? balance1 - (reserve1 - amount1Out) : 0;
        require(in0 > 0 || in1 > 0, "no input");
        require((balance0 * 1000 - in0 * 3) * (balance1 * 1000 - in1 * 3) >= reserve0 * reserve1 * 1000000, "k");
        emit Swap(msg.sender, in0, in1, amount0Out, amount1Out, to);
        sync();
    }
}

interface IWrappedEther {
    function deposit() external payable;
    function withdraw(uint256) external;
    function transfer(address, uint256) external returns (bool);
}

/** Creates pairs and swaps through one pair (paths of two tokens), Uniswap V2 router style. */
contract Router {
    address public immutable weth;
    mapping(address => mapping(address => address)) public pairFor;
    constructor(address weth_) {
        weth = weth_;
    }
    receive() external payable {
        require(msg.sender == weth, "not weth");
    }
    function createPair(address a, address b) external returns (address pair) {
        require(pairFor[a][b] == address(0), "exists");
        pair = address(new Pair(a, b));
        pairFor[a][b] = pair;
        pairFor[b][a] = pair;
    }
    function quote(uint256 amountIn, address tokenIn, address tokenOut) public view returns (uint256) {
        Pair pair = Pair(pairFor[tokenIn][tokenOut]);
        (uint256 rIn, uint256 rOut) = tokenIn == pair.token0() ? (pair.reserve0(), pair.reserve1()) : (pair.reserve1(), pair.reserve0());
        return amountIn * 997 * rOut / (rIn * 1000 + amountIn * 997);
    }
    /** Swaps what reached the pair (its balance above its reserve: fee-on-transfer tokens work) and sends the output to \`to\`. */
    function _swap(address tokenIn, address tokenOut, uint256 amountOutMin, address to) internal returns (uint256 out) {
        Pair pair = Pair(pairFor[tokenIn][tokenOut]);
        require(address(pair) != address(0), "no pair");
        bool zeroIn = tokenIn == pair.token0();
        uint256 reserveIn = zeroIn ? pair.reserve0() : pair.reserve1();
        uint256 reserveOut = zeroIn ? pair.reserve1() : pair.reserve0();
        uint256 amountIn = IERC20Like(tokenIn).balanceOf(address(pair)) - reserveIn;
        out = amountIn * 997 * reserveOut / (reserveIn * 1000 + amountIn * 997);
        require(out >= amountOutMin, "insufficient output");
        pair.swap(zeroIn ? 0 : out, zeroIn ? out : 0, to);
    }
    function swapExactTokensForTokens(uint256 amountIn, uint256 amountOutMin, address[] calldata path, address to, uint256 deadline)
        external
        returns (uint256[] memory amounts)
    {
        require(block.timestamp <= deadline, "expired");
        require(path.length == 2, "path");
        SafeToken.send(path[0], abi.encodeWithSignature("transferFrom(address,address,uint256)", msg.sender, pairFor[path[0]][path[1]], amountIn));
        amounts = new uint256[](2);
        amounts[0] = amountIn;
        amounts[1] = _swap(path[0], path[1], amountOutMin, to);
    }
    function swapExactETHForTokens(uint256 amountOutMin, address[] calldata path, address to, uint256 deadline)
        external
        payable
        returns (uint256[] memory amounts)
    {
        require(block.timestamp <= deadline, "expired");
        require(path.length == 2 && path[0] == weth, "path");
        IWrappedEther(weth).deposit{value: msg.value}();
        require(IWrappedEther(weth).transfer(pairFor[weth][path[1]], msg.value), "weth transfer");
        amounts = new uint256[](2);
        amounts[0] = msg.value;
        amounts[1] = _swap(weth, path[1], amountOutMin, to);
    }
    function swapExactTokensForETH(uint256 amountIn, uint256 amountOutMin, address[] calldata path, address to, uint256 deadline)
        external
        returns (uint256[] memory amounts)
    {
        require(block.timestamp <= deadline, "expired");
        require(path.length == 2 && path[1] == weth, "path");
        SafeToken.send(path[0], abi.encodeWithSignature("transferFrom(address,address,uint256)", msg.sender, pairFor[path[0]][weth], amountIn));
        amounts = new uint256[](2);
        amounts[0] = amountIn;
        amounts[1] = _swap(path[0], weth, amountOutMin, address(this));
        IWrappedEther(weth).withdraw(amounts[1]);
        (bool ok, ) = to.call{value: amounts[1]}("");
        require(ok, "send failed");
    }
}

/** Multicall3's shape: aggregate3 (each call may fail or not) and aggregate3Value (values add up to msg.value). */
contract Aggregator {
    struct Call3 {
        address target;
        bool allowFailure;
        bytes callData;
    }
    struct Call3Value {
        address target;
        bool allowFailure;
        uint256 value;
        bytes callData;
    }
    struct Result {
        bool success;
        bytes returnData;
    }
    function aggregate3(Call3[] calldata calls) external payable returns (Result[] memory results) {
        results = new Result[](calls.length);
        for (uint256 i = 0; i < calls.length; i++) {
            (results[i].success, results[i].returnData) = calls[i].target.call(calls[i].callData);
            require(calls[i].allowFailure || results[i].success, "call failed");
        }
    }
    function aggregate3Value(Call3Value[] calldata calls) external payable returns (Result[] memory results) {
        results = new Result[](calls.length);
        uint256 total;
        for (uint256 i = 0; i < calls.length; i++) {
            total += calls[i].value;
            (results[i].success, results[i].returnData) = calls[i].target.call{value: calls[i].value}(calls[i].callData);
            require(calls[i].allowFailure || results[i].success, "call failed");
        }
        require(total == msg.value, "value mismatch");
    }
}

/** A minimal smart account: its owner (or itself) executes calls through it; it takes ether. */
contract SmartAccount {
    address public owner;
    constructor(address owner_) {
        owner = owner_;
    }
    receive() external payable {}
    function execute(address to, uint256 value, bytes calldata data) external payable returns (bytes memory out) {
        require(msg.sender == owner || msg.sender == address(this), "not owner");
        bool ok;
        (ok, out) = to.call{value: value}(data);
        if (!ok) {
            assembly {
                revert(add(out, 32), mload(out))
            }
        }
    }
    function onERC721Received(address, address, uint256, bytes calldata) external pure returns (bytes4) {
        return this.onERC721Received.selector;
    }
    function onERC1155Received(address, address, uint256, uint256, bytes calldata) external pure returns (bytes4) {
        return this.onERC1155Received.selector;
    }
}
`

export type PreviewScenarioContracts = ReturnType<typeof compileSolidity>

let compiled: PreviewScenarioContracts | undefined
/** The scenario contracts compiled (once per process). */
export function previewScenarioContracts(): PreviewScenarioContracts {
  compiled ??= compileSolidity('PreviewScenario.sol', PREVIEW_SCENARIO_SOURCE)
  return compiled
}

/** The deployed scenario: every contract's address (lower case), the pairs by name, the smart account and its owner. */
export type PreviewScenario = {
  /** Two plain ERC-20s (18 decimals): "Token A" (TKA) and "Token B" (TKB). */
  tokenA: Address
  tokenB: Address
  weth: Address
  fee: Address
  rebase: Address
  noBool: Address
  nft: Address
  multi: Address
  router: Address
  /** The pairs (each seeded with 1,000 of each side; the ether pair with 100 WETH): A/B, WETH/A, FEE/A, NOB/A, REB/A. */
  pairs: { ab: Address; wethA: Address; feeA: Address; noBoolA: Address; rebaseA: Address }
  aggregator: Address
  smartAccount: Address
  owner: Address
}

const ETHER = 10n ** 18n
const word = (v: bigint | string) =>
  (typeof v === 'bigint' ? v.toString(16) : v.slice(2).toLowerCase()).padStart(64, '0')

/**
 * Deploys the scenario contracts from `deployer` on an anvil with automine (each transaction mined
 * as it is sent), creates and seeds the pairs, and gives every holder 10,000 of each ERC-20, 10 WETH
 * and 1,000,000 NOB; the smart account (owned by `holders[0]`) gets the same and 10 ether.
 */
export async function deployPreviewScenario(
  url: string,
  deployer: Address,
  holders: Address[],
): Promise<PreviewScenario> {
  const call = (signature: string, ...args: (bigint | Address)[]) => encodeCall(signature, args)
  const send = async (tx: Record<string, unknown>) => {
    const hash = await rpcResult(url, 'eth_sendTransaction', [{ from: deployer, gas: '0x1c9c380', ...tx }])
    const receipt = await waitForReceipt(url, hash)
    if (receipt.status !== '0x1') throw new Error(`scenario setup failed: ${JSON.stringify(tx).slice(0, 200)}`)
    return receipt
  }
  const c = previewScenarioContracts()
  const create = async (name: string, args = '') =>
    ((await send({ data: `${c[name]!.creation}${args}` })).contractAddress as string).toLowerCase() as Address
  // Constructor (string, string): two offsets, then each string's length and bytes.
  const strings = (a: string, b: string) => {
    const enc = (s: string) => word(BigInt(s.length)) + Buffer.from(s).toString('hex').padEnd(64, '0')
    return word(64n) + word(128n) + enc(a) + enc(b)
  }
  const tokenA = await create('PlainToken', strings('Token A', 'TKA'))
  const tokenB = await create('PlainToken', strings('Token B', 'TKB'))
  const weth = await create('WrappedEther')
  const fee = await create('FeeToken')
  const rebase = await create('RebaseToken')
  const noBool = await create('NoBoolToken')
  const nft = await create('Nft721')
  const multi = await create('Multi1155')
  const router = await create('Router', word(weth))
  const aggregator = await create('Aggregator')
  const owner = holders[0]!
  const smartAccount = await create('SmartAccount', word(owner))

  const pairOf = async (a: Address, b: Address) => {
    await send({ to: router, data: call('createPair(address,address)', a, b) })
    const out = await rpcResult(url, 'eth_call', [{ to: router, data: call('pairFor(address,address)', a, b) }])
    return `0x${out.slice(26)}` as Address
  }
  const pairs = {
    ab: await pairOf(tokenA, tokenB),
    wethA: await pairOf(weth, tokenA),
    feeA: await pairOf(fee, tokenA),
    noBoolA: await pairOf(noBool, tokenA),
    rebaseA: await pairOf(rebase, tokenA),
  }
  const mint = (token: Address, to: Address, amount: bigint) =>
    send({ to: token, data: call('mint(address,uint256)', to, amount) })
  // Liquidity: minted into each pair, then sync(); the ether pair's WETH wrapped and sent.
  const seed: [Address, Address, bigint][] = [
    [pairs.ab, tokenA, 1000n * ETHER],
    [pairs.ab, tokenB, 1000n * ETHER],
    [pairs.wethA, tokenA, 100_000n * ETHER],
    [pairs.feeA, fee, 1000n * ETHER],
    [pairs.feeA, tokenA, 1000n * ETHER],
    [pairs.noBoolA, noBool, 1_000_000_000n],
    [pairs.noBoolA, tokenA, 1000n * ETHER],
    [pairs.rebaseA, rebase, 1000n * ETHER],
    [pairs.rebaseA, tokenA, 1000n * ETHER],
  ]
  for (const [pair, token, amount] of seed) await mint(token, pair, amount)
  await send({ to: weth, value: `0x${(100n * ETHER).toString(16)}`, data: call('deposit()') })
  await send({ to: weth, data: call('transfer(address,uint256)', pairs.wethA, 100n * ETHER) })
  for (const pair of Object.values(pairs)) await send({ to: pair, data: call('sync()') })

  for (const holder of [...holders, smartAccount]) {
    for (const token of [tokenA, tokenB, fee, rebase]) await mint(token, holder, 10_000n * ETHER)
    await mint(noBool, holder, 1_000_000_000_000n)
  }
  // WETH for each holder: wrapped by the deployer and sent.
  const wrapped = 10n * ETHER * BigInt(holders.length + 1)
  await send({ to: weth, value: `0x${wrapped.toString(16)}`, data: call('deposit()') })
  for (const holder of [...holders, smartAccount]) {
    await send({ to: weth, data: call('transfer(address,uint256)', holder, 10n * ETHER) })
  }
  await send({ to: smartAccount, value: `0x${(10n * ETHER).toString(16)}` })
  return { tokenA, tokenB, weth, fee, rebase, noBool, nft, multi, router, pairs, aggregator, smartAccount, owner }
}
