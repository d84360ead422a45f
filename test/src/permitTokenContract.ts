/**
 * An EIP-2612 token for the preview tests ("Permit Token", PMT, 18 decimals; the deployer holds 10^24):
 * permit() checks the owner's signature over its DOMAIN_SEPARATOR and nonce, then sets the allowance;
 * approve and transferFrom as an ERC-20's (transferFrom spends the allowance). A Solidity contract to
 * put in a test's source (it declares no pragma).
 */
export const PERMIT_TOKEN_CONTRACT = `contract PermitToken {
    string public constant name = "Permit Token";
    string public constant symbol = "PMT";
    uint8 public constant decimals = 18;
    bytes32 public immutable DOMAIN_SEPARATOR;
    mapping(address => uint256) public balanceOf;
    mapping(address => mapping(address => uint256)) public allowance;
    mapping(address => uint256) public nonces;
    event Approval(address indexed owner, address indexed spender, uint256 value);
    constructor() {
        balanceOf[msg.sender] = 1e24;
        DOMAIN_SEPARATOR = keccak256(abi.encode(
            keccak256("EIP712Domain(string name,string version,uint256 chainId,address verifyingContract)"),
            keccak256(bytes(name)), keccak256("1"), block.chainid, address(this)));
    }
    function approve(address spender, uint256 value) external returns (bool) {
        allowance[msg.sender][spender] = value;
        emit Approval(msg.sender, spender, value);
        return true;
    }
    function transferFrom(address from, address to, uint256 value) external returns (bool) {
        allowance[from][msg.sender] -= value;
        balanceOf[from] -= value;
        balanceOf[to] += value;
        return true;
    }
    function permit(address owner, address spender, uint256 value, uint256 deadline, uint8 v, bytes32 r, bytes32 s) external {
        require(block.timestamp <= deadline, "expired");
        bytes32 digest = keccak256(abi.encodePacked("\\x19\\x01", DOMAIN_SEPARATOR, keccak256(abi.encode(
            keccak256("Permit(address owner,address spender,uint256 value,uint256 nonce,uint256 deadline)"),
            owner, spender, value, nonces[owner]++, deadline))));
        require(ecrecover(digest, v, r, s) == owner, "bad signature");
        allowance[owner][spender] = value;
        emit Approval(owner, spender, value);
    }
}`
