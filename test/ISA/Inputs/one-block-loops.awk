# The loops of an AMDGPU assembly listing that are one basic block (a
# label, straight-line code, a conditional branch back to the label), for
# the ISA tests that pin what a hot loop holds. Per loop, in order: a line
# "loop N", then one line "<count> <mnemonic>" per instruction kind, sorted
# by mnemonic (writes of M0 counted apart, as "m0-write"); with -v text=1
# the loop's instructions instead, as listed.
/^[.A-Za-z_][A-Za-z0-9_.$]*:/ {
  label = $1
  sub(":$", "", label)
  n = 0
  delete body
  next
}
/^[ \t]+[a-z]/ && $1 !~ /^;/ {
  body[++n] = $0
  if ($1 ~ /^s_cbranch_/ && $2 == label) {
    ++loops
    print "loop " loops
    if (text) {
      for (i = 1; i <= n; ++i)
        print body[i]
    } else {
      delete count
      for (i = 1; i <= n; ++i) {
        split(body[i], f, /[ \t,]+/)
        m = f[2]
        if (m ~ /^s_mov_b32$/ && f[3] == "m0")
          m = "m0-write"
        count[m]++
      }
      # Sorted by mnemonic (insertion sort: mawk has no asort).
      k = 0
      for (m in count)
        keys[++k] = m
      for (i = 2; i <= k; ++i) {
        v = keys[i]
        for (j = i - 1; j >= 1 && keys[j] > v; --j)
          keys[j + 1] = keys[j]
        keys[j + 1] = v
      }
      for (i = 1; i <= k; ++i)
        print count[keys[i]], keys[i]
      delete keys
    }
    n = 0
  }
}
