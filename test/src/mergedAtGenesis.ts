/**
 * A geth genesis config's fork fields for a chain merged at genesis, every fork up to Shanghai from
 * the start: spread into `config` beside the chain id and the later forks' times.
 */
export const MERGED_AT_GENESIS = {
  homesteadBlock: 0,
  eip150Block: 0,
  eip155Block: 0,
  eip158Block: 0,
  byzantiumBlock: 0,
  constantinopleBlock: 0,
  petersburgBlock: 0,
  istanbulBlock: 0,
  berlinBlock: 0,
  londonBlock: 0,
  mergeNetsplitBlock: 0,
  terminalTotalDifficulty: 0,
  shanghaiTime: 0,
} as const
