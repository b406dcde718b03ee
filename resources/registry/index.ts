// Resources and look-ups of this domain are exported here as they land.
export {};
