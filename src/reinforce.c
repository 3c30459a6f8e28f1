/* reinforce module: the access-bump cooldown and the signal values. */
#include "internal.h"

const char *const md_reinforce_signals[3] = {"positive", "negative", "neutral"};

md_status md_signal_value(md_reinforce_signal signal, double *out) {
    if (!out) return MD_ERR_NULL;
    switch (signal) {
    case MD_REINFORCE_POSITIVE: *out = 1; return MD_OK;
    case MD_REINFORCE_NEGATIVE: *out = -1; return MD_OK;
    case MD_REINFORCE_NEUTRAL: *out = 0; return MD_OK;
    }
    return MD_ERR_INVALID;
}

bool md_should_bump_access(bool has_last, double last_ms, double now_ms, double cooldown_s) {
    if (!has_last) return true;
    return (now_ms - last_ms) / 1000 >= cooldown_s;
}

md_status md_partition_by_cooldown(const uint8_t *has_last, const double *last_ms, size_t n,
                                   double now_ms, double cooldown_s, uint8_t *bumped) {
    if (MDI_BAD_IN(has_last, n) || MDI_BAD_IN(last_ms, n) || MDI_BAD_IN(bumped, n))
        return MD_ERR_NULL;
    for (size_t i = 0; i < n; i++)
        bumped[i] = md_should_bump_access(has_last[i] != 0, last_ms[i], now_ms, cooldown_s);
    return MD_OK;
}
