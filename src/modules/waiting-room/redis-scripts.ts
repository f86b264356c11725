// The Redis store's Lua scripts: each runs atomically, so verifications, the opening and admission are
// consistent across instances. The admission arithmetic is admission.ts's.

/**
 * Checks a code and makes or finds the verified contact's place, in one step.
 * KEYS: the verification, emails, phones, pre, q, meta, places, adm.
 * ARGV: code mac, now (ms), new place id, max attempts, when the room's keys expire (ms).
 * Answers {'unknown'} | {'expired'} | {'spent'} | {'wrong', attempts left} | {'placed', id, existing}.
 */
export const VERIFY = `
local v = redis.call('HMGET', KEYS[1], 'mac', 'exp', 'tries', 'used', 'channel', 'email', 'phone')
if not v[1] or v[4] then return {'unknown'} end
local max = tonumber(ARGV[4])
local tries = tonumber(v[3])
if tries >= max then return {'spent'} end
if tonumber(ARGV[2]) >= tonumber(v[2]) then return {'expired'} end
if v[1] ~= ARGV[1] then
  tries = redis.call('HINCRBY', KEYS[1], 'tries', 1)
  if tries >= max then return {'spent'} end
  return {'wrong', max - tries}
end
redis.call('HSET', KEYS[1], 'used', ARGV[2])
local map, contact = KEYS[2], v[6]
if v[5] == 'whatsapp' then map, contact = KEYS[3], v[7] end
local existing = redis.call('HGET', map, contact)
if existing then return {'placed', existing, 1} end
local seq = redis.call('HINCRBY', KEYS[6], 'seq', 1)
if redis.call('HEXISTS', KEYS[6], 'opened') == 1 then
  redis.call('ZADD', KEYS[5], 1000000000000 + seq, ARGV[3])
else
  redis.call('ZADD', KEYS[4], seq, ARGV[3])
end
redis.call('HSET', map, contact, ARGV[3])
redis.call('HSET', KEYS[7], ARGV[3], v[6])
for i = 2, 8 do redis.call('PEXPIREAT', KEYS[i], ARGV[5]) end
return {'placed', ARGV[3], 0}
`;

/**
 * The opening's first step: the pre-queue is frozen (renamed, so later verifications go to the
 * queue, after it) and the room marked open and `moving` under the opener's token until `lease`.
 * KEYS: pre, frozen, meta. ARGV: now, rate, seed, when the keys expire (ms), lease until (ms), token.
 * Answers {'open'} (open already) | {'busy'} (another opener holds the lease) | {'resume', seed, n}
 * (its lease ran out: this token takes the move over, with the seed drawn first) | {'begin', seed,
 * n} | {'opened', seed, 0} (an empty pre-queue: nothing to move).
 */
export const OPEN_BEGIN = `
local m = redis.call('HMGET', KEYS[3], 'opened', 'moving', 'lease', 'seed')
if m[1] and not m[2] then return {'open'} end
if m[2] then
  if tonumber(ARGV[1]) < tonumber(m[3]) then return {'busy'} end
  redis.call('HSET', KEYS[3], 'moving', ARGV[6], 'lease', ARGV[5])
  return {'resume', m[4], redis.call('ZCARD', KEYS[2])}
end
local n = 0
if redis.call('EXISTS', KEYS[1]) == 1 then
  redis.call('RENAME', KEYS[1], KEYS[2])
  n = redis.call('ZCARD', KEYS[2])
  redis.call('PEXPIREAT', KEYS[2], ARGV[4])
end
redis.call('HSET', KEYS[3], 'opened', ARGV[1], 'base', 0, 'anchor', ARGV[1], 'rate', ARGV[2], 'seed', ARGV[3])
redis.call('PEXPIREAT', KEYS[3], ARGV[4])
if n == 0 then return {'opened', ARGV[3], 0} end
redis.call('HSET', KEYS[3], 'moving', ARGV[6], 'lease', ARGV[5])
return {'begin', ARGV[3], n}
`;

/**
 * One chunk of the shuffled pre-queue into the queue at ranks first, first+1, …, while the token
 * still holds the move (a repeat writes the same scores). KEYS: q, meta. ARGV: token, first rank,
 * when the keys expire (ms), then the place ids. -1: the move was taken over.
 */
export const OPEN_MOVE = `
if redis.call('HGET', KEYS[2], 'moving') ~= ARGV[1] then return -1 end
local first = tonumber(ARGV[2])
for i = 4, #ARGV do redis.call('ZADD', KEYS[1], first + i - 4, ARGV[i]) end
redis.call('PEXPIREAT', KEYS[1], ARGV[3])
return #ARGV - 3
`;

/**
 * The move done: the frozen pre-queue goes (UNLINK: freed off Redis's main thread) and admission
 * starts now. KEYS: frozen, meta. ARGV: token, now. Answers the places moved; -1: taken over.
 */
export const OPEN_FINISH = `
if redis.call('HGET', KEYS[2], 'moving') ~= ARGV[1] then return -1 end
local n = redis.call('ZCARD', KEYS[1])
redis.call('UNLINK', KEYS[1])
redis.call('HDEL', KEYS[2], 'moving', 'lease')
redis.call('HSET', KEYS[2], 'base', 0, 'anchor', ARGV[2])
return n
`;

/**
 * KEYS: q, meta, adm, pre, places, frozen. ARGV: placeId, now, rate, when the keys expire (ms).
 * While the opening moves the pre-queue nobody has a position yet: {'prequeue'}.
 */
export const PLACE = `
local m = redis.call('HMGET', KEYS[2], 'opened', 'base', 'anchor', 'rate', 'moving')
if not m[1] then
  if redis.call('ZSCORE', KEYS[4], ARGV[1]) then return {'prequeue'} end
  return {'unknown'}
end
if m[5] then
  if redis.call('ZSCORE', KEYS[6], ARGV[1]) or redis.call('ZSCORE', KEYS[1], ARGV[1]) then return {'prequeue'} end
  return {'unknown'}
end
local rank = redis.call('ZRANK', KEYS[1], ARGV[1])
if not rank then return {'unknown'} end
local total = redis.call('ZCARD', KEYS[1])
local base, anchor, rate = tonumber(m[2]), tonumber(m[3]), tonumber(m[4])
local now, want = tonumber(ARGV[2]), tonumber(ARGV[3])
local reach = base + math.floor(math.max(0, now - anchor) * rate / 60000)
if rate ~= want or reach > total then
  reach = math.min(total, reach)
  base, anchor, rate = reach, now, want
  redis.call('HSET', KEYS[2], 'base', base, 'anchor', anchor, 'rate', rate)
end
local at, fresh = '', 0
if rank < reach then
  fresh = redis.call('HSETNX', KEYS[3], ARGV[1], ARGV[2])
  if fresh == 1 then redis.call('PEXPIREAT', KEYS[3], ARGV[4]) end
  at = redis.call('HGET', KEYS[3], ARGV[1])
end
local email = redis.call('HGET', KEYS[5], ARGV[1]) or ''
return {'queued', rank, reach, total, base, anchor, rate, at, fresh, email}
`;
