// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

interface IToken {
    function transfer(address to, uint256 value) external returns (bool);
    function transferFrom(address from, address to, uint256 value) external returns (bool);
    function balanceOf(address who) external view returns (uint256);
}

/// Deployed by Scenarios with CREATE and CREATE2; can log, revert and self-destruct.
contract Child {
    uint256 public value;
    event Born(address indexed parent, uint256 value);

    constructor(uint256 v, bool fail) payable {
        require(!fail, "child constructor reverted");
        value = v;
        emit Born(msg.sender, v);
    }

    function set(uint256 v) external {
        value = v;
    }

    function destroy(address payable beneficiary) external {
        selfdestruct(beneficiary);
    }
}

/// One contract per tracing scenario: nesting, every call kind, creation, logs, reverts of every
/// kind, transient storage, refunds, precompiles and out-of-gas children.
contract Scenarios {
    error Custom(uint256 code, address who);

    event Note(uint256 indexed tag, bytes data);

    uint256 public counter;
    uint256[] public slots;
    address public lastChild;

    receive() external payable {}

    /// Recurses `depth` levels through external self-calls, logging at every level.
    function recurse(uint256 depth) public returns (uint256) {
        emit Note(depth, "");
        if (depth == 0) return counter;
        return this.recurse(depth - 1) + 1;
    }

    function increment() external returns (uint256) {
        counter += 1;
        return counter;
    }

    /// DELEGATECALL into `target.increment()`: writes this contract's counter.
    function delegate(address target) external returns (uint256) {
        (bool ok, bytes memory out) = target.delegatecall(abi.encodeWithSignature("increment()"));
        require(ok, "delegatecall failed");
        return abi.decode(out, (uint256));
    }

    /// STATICCALL into a view, and a CALL inside a static context that must fail.
    function staticPeek(address target) external view returns (uint256 count, bool writeFailed) {
        (bool ok, bytes memory out) = target.staticcall(abi.encodeWithSignature("counter()"));
        require(ok, "staticcall failed");
        count = abi.decode(out, (uint256));
        (bool wrote, ) = target.staticcall(abi.encodeWithSignature("increment()"));
        writeFailed = !wrote;
    }

    /// CALLCODE (assembly): runs target's increment() on this contract's storage.
    function callcode(address target) external returns (bool ok) {
        bytes4 sel = bytes4(keccak256("increment()"));
        assembly {
            let p := mload(0x40)
            mstore(p, sel)
            ok := callcode(gas(), target, 0, p, 4, 0, 0)
        }
    }

    function create(uint256 v) external returns (address child) {
        child = address(new Child(v, false));
        lastChild = child;
    }

    function create2(uint256 v, bytes32 salt) external returns (address child) {
        child = address(new Child{salt: salt}(v, false));
        lastChild = child;
    }

    /// A CREATE whose constructor reverts, caught: the parent goes on.
    function createFailing() external returns (bool created) {
        try new Child(1, true) returns (Child) {
            created = true;
        } catch {
            created = false;
        }
    }

    /// CREATE2 a child and self-destruct it in the same transaction (EIP-6780: really destroyed).
    function createAndDestroy(bytes32 salt) external returns (address child) {
        Child c = new Child{salt: salt}(7, false);
        c.destroy(payable(msg.sender));
        child = address(c);
    }

    function destroyChild(address child) external {
        Child(child).destroy(payable(address(this)));
    }

    /// Logs in a child frame that then reverts: the log must not survive.
    function logThenRevert(uint256 tag) external {
        emit Note(tag, "kept");
        try this.emitAndRevert(tag + 1) {} catch {}
    }

    function emitAndRevert(uint256 tag) external {
        emit Note(tag, "dropped");
        revert("reverted after logging");
    }

    function revertWithReason() external pure {
        revert("scenario reverted");
    }

    function revertWithCustom(uint256 code) external view {
        revert Custom(code, msg.sender);
    }

    function panicDivide(uint256 d) external pure returns (uint256) {
        return 1 / d;
    }

    function panicAssert() external pure {
        assert(false);
    }

    function invalidOpcode() external pure {
        assembly {
            invalid()
        }
    }

    /// Calls `target` (the devnet's raw BadJump contract: PUSH1 3 JUMP) and reports that it failed.
    function callBadJump(address target) external returns (bool ok) {
        (ok, ) = target.call("");
        counter += 1;
    }

    /// Transient storage (EIP-1153): written and read back within the transaction.
    function transient(uint256 v) external returns (uint256 out) {
        assembly {
            tstore(0, v)
            out := tload(0)
        }
        counter = out;
    }

    /// Fills `n` array slots, then `clear` zeroes them (storage refunds).
    function fill(uint256 n) external {
        for (uint256 i = 0; i < n; i++) slots.push(i + 1);
    }

    function clear() external {
        uint256 n = slots.length;
        for (uint256 i = 0; i < n; i++) slots[i] = 0;
        delete slots;
    }

    /// Sums the first `n` array slots: one call reading many slots.
    function sum(uint256 n) external view returns (uint256 total) {
        for (uint256 i = 0; i < n; i++) total += slots[i];
    }

    /// Sends value to `to` (an empty account or a contract).
    function pay(address payable to, uint256 amount) external payable {
        (bool ok, ) = to.call{value: amount}("");
        require(ok, "payment failed");
    }

    /// Calls precompiles: ecrecover, sha256, identity and modexp.
    function precompiles() external view returns (address signer, bytes32 digest, bytes memory echoed, bytes memory power) {
        bytes32 h = keccak256("edgetrace");
        signer = ecrecover(h, 27, bytes32(uint256(1)), bytes32(uint256(2)));
        digest = sha256("edgetrace");
        (, echoed) = address(4).staticcall("identity");
        (, power) = address(5).staticcall(abi.encodePacked(uint256(1), uint256(1), uint256(1), uint8(3), uint8(5), uint8(7)));
    }

    /// A child call with too little gas runs out of gas; the parent carries on.
    function childOutOfGas() external returns (bool childOk) {
        (childOk, ) = address(this).call{gas: 5000}(abi.encodeWithSignature("burn()"));
        counter += 1;
    }

    function burn() external {
        for (uint256 i = 0; i < 1000; i++) slots.push(i);
    }

    /// Nested calls into a token: this contract moves tokens it was approved for.
    function pull(address token, address from, uint256 amount) external returns (uint256) {
        IToken(token).transferFrom(from, address(this), amount);
        IToken(token).transfer(from, amount / 2);
        return IToken(token).balanceOf(address(this));
    }
}
