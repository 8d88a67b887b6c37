-- wrk script: clicks on distinct stored links (run.sh's "distinct taps"), spread evenly over the links created:
-- tap j (0 .. TAPS-1, dealt round-robin to wrk's threads) asks link floor(j * LINKS / TAPS), whose slug is the
-- one run.sh gave it (the same function as its awk generator). Each thread stops once it has made its share and
-- says so with a file in DONE (wrk itself runs for its whole -d; run.sh stops it with SIGINT once every thread is
-- done). LINKS, TAPS, WRK_THREADS and DONE come from the environment; Host and User-Agent from wrk's -H options.
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

function setup(thread)
    thread:set("index", created)
    created = created + 1
end

function init(args)
    count = 0
    share = math.floor(taps / nthreads)
end

function request()
    local j = count * nthreads + index
    count = count + 1
    return wrk.format(nil, "/" .. slug(math.floor(j * links / taps)))
end

function response(status, headers, body)
    if count >= share and not stopped then
        stopped = true
        io.open(os.getenv("DONE") .. "/" .. index, "w"):close()
        wrk.thread:stop()
    end
end
