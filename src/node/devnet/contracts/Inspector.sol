// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

/// Views for eth_call tests: the block context, and state of several accounts at once.
contract Inspector {
    uint256[] public values;

    struct Context {
        uint256 number;
        uint256 timestamp;
        address coinbase;
        uint256 chainId;
        uint256 baseFee;
        uint256 prevrandao;
        uint256 gasLimit;
        bytes32 parentHash;
        bytes32 olderHash;
    }

    function context() external view returns (Context memory c) {
        c.number = block.number;
        c.timestamp = block.timestamp;
        c.coinbase = block.coinbase;
        c.chainId = block.chainid;
        c.baseFee = block.basefee;
        c.prevrandao = block.prevrandao;
        c.gasLimit = block.gaslimit;
        c.parentHash = blockhash(block.number - 1);
        c.olderHash = block.number > 5 ? blockhash(block.number - 5) : bytes32(0);
    }

    function caller() external view returns (address sender, address origin) {
        return (msg.sender, tx.origin);
    }

    function setValues(uint256 n) external {
        for (uint256 i = values.length; i < n; i++) values.push(i * 3 + 1);
    }

    /// Reads `n` storage slots in one call.
    function sumValues(uint256 n) external view returns (uint256 total) {
        for (uint256 i = 0; i < n; i++) total += values[i];
    }

    /// Balances, code sizes and code hashes of several accounts.
    function accounts(address[] calldata who)
        external
        view
        returns (uint256[] memory balances, uint256[] memory sizes, bytes32[] memory hashes)
    {
        balances = new uint256[](who.length);
        sizes = new uint256[](who.length);
        hashes = new bytes32[](who.length);
        for (uint256 i = 0; i < who.length; i++) {
            balances[i] = who[i].balance;
            sizes[i] = who[i].code.length;
            hashes[i] = who[i].codehash;
        }
    }
}
