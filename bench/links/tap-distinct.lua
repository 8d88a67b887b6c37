-- wrk script: clicks on distinct stored links (run.sh's "distinct taps"), spread evenly over the links created:
-- tap j (0 .. TAPS-1, dealt round-robin to wrk's threads) asks link floor(j * LINKS / TAPS), whose slug is the
-- one run.sh gave it (the same function as its awk generator). With LINKS=1 every tap asks the first link: the
-- same script, the same work per request, on one kept link (run.sh's fair comparison).
--
-- So that wrk's Lua costs as little per request as it can (it shares the cores with linkd): every path is made in
-- init(), before wrk's clock and before the first request; request() takes the next and adds the head and tail
-- made once; there is no response() (wrk would then copy every answer's headers and body into Lua). Each thread
-- writes, once it has sent its share, a file in DONE holding "<first request's time> <last request's time>
-- <requests>" (CLOCK_REALTIME, seconds), and stops; run.sh reads the span from the earliest first to the latest
-- last. LINKS, TAPS, WRK_THREADS and DONE come from the environment; Host and User-Agent from wrk's -H options.
local ffi = require("ffi")
ffi.cdef [[
typedef struct { long tv_sec; long tv_nsec; } tap_timespec;
int clock_gettime(int clock, tap_timespec *time);
]]

local links = tonumber(os.getenv("LINKS"))
local taps = tonumber(os.getenv("TAPS"))
local nthreads = tonumber(os.getenv("WRK_THREADS"))
local alphabet = "23456789abcdefghjkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ"
local created = 0

-- The slug of link i: i scrambled by an odd multiplier modulo 2^32 (a bijection), in 6 base-55 digits.
function slug(i)
    local x = (i * 387420489) % 4294967296
    local s = ""
    for _ = 1, 6 do
        local d = x % 55
        s = s .. alphabet:sub(d + 1, d + 1)
        x = math.floor(x / 55)
    end
    return s
end

local function now()
    local time = ffi.new("tap_timespec")
    ffi.C.clock_gettime(0, time)
    return string.format("%d.%09d", tonumber(time.tv_sec), tonumber(time.tv_nsec))
end

function setup(thread)
    thread:set("index", created)
    created = created + 1
end

function init(args)
    count = 0
    share = math.floor(taps / nthreads)
    paths = {}
    local slugs = {}
    for k = 1, share do
        local i = math.floor(((k - 1) * nthreads + index) * links / taps)
        local s = slugs[i]
        if s == nil then
            s = slug(i)
            slugs[i] = s
        end
        paths[k] = s
    end
    -- wrk.format's request around a path: "GET /<slug> HTTP/1.1\r\n<headers>\r\n\r\n".
    local whole = wrk.format("GET", "/@")
    local at = whole:find("@", 1, true)
    head, tail = whole:sub(1, at - 1), whole:sub(at + 1)
end

function request()
    count = count + 1
    if count == 1 then first = now() end
    -- (A connection may still ask for a request between stop() and the loop's end: the last path again, uncounted.)
    if count > share then return head .. paths[share] .. tail end
    if count == share then
        local file = io.open(os.getenv("DONE") .. "/" .. index, "w")
        file:write(first, " ", now(), " ", share, "\n")
        file:close()
        wrk.thread:stop()
    end
    return head .. paths[count] .. tail
end
