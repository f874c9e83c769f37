// A real redis-server on a free loopback port for one suite (scripts/lib/redis-process.ts, shared with the soak run).
export { REDIS_BIN, startRedis, type RunningRedis } from '../../scripts/lib/redis-process.ts';
