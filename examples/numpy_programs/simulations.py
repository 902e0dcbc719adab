"""Monte Carlo models of the kind a statistics course writes: a queue, an inventory, a
lottery, dice, bird headings, word frequencies, reaction times and a bootstrap."""
import numpy as np

rng = np.random.default_rng(2024)

# a single-server queue: exponential gaps between arrivals and service times, and the
# waits of the first customers by Lindley's recursion, one customer at a time
n = 5000
gaps = rng.exponential(scale=1.0, size=n)
service = rng.exponential(scale=0.8, size=n)
wait = np.zeros(200)
for i in range(1, 200):
    wait[i] = max(0.0, wait[i - 1] + service[i - 1] - gaps[i])
utilization = service.sum() / gaps.sum()

# an inventory: Poisson demand each day, restocked to 35 every week
demand = rng.poisson(lam=4.0, size=(5200, 7))
weekly = demand.sum(axis=1)
stockout_rate = np.mean(weekly > 35)

# a lottery: how many of my 6 numbers are among the 6 drawn from 49
matches = rng.hypergeometric(ngood=6, nbad=43, nsample=6, size=50_000)
p_three_or_more = np.mean(matches >= 3)
match_shares = np.bincount(matches, minlength=7) / matches.size

# dice: 600 rolls, counts per face, and the chi-square statistic of each experiment
rolls = rng.multinomial(600, [1 / 6] * 6, size=2000)
chi2 = ((rolls - 100) ** 2 / 100).sum(axis=1)

# bird headings: von Mises around north-east, mean direction and resultant length
headings = rng.vonmises(mu=np.pi / 4, kappa=2.0, size=10_000)
s, c = np.sin(headings).mean(), np.cos(headings).mean()
mean_direction = np.arctan2(s, c)
resultant = np.hypot(s, c)

# word frequencies: Zipf ranks, the share of the ten most common words
ranks = rng.zipf(a=2.0, size=20_000)
top10_share = np.mean(ranks <= 10)

# reaction times: Wald (inverse Gaussian), their median and 90th percentile
rt = rng.wald(mean=0.5, scale=2.0, size=20_000)
rt_median, rt_p90 = np.median(rt), np.percentile(rt, 90)

# a bootstrap interval of a mean
data = rng.gamma(shape=2.0, scale=1.5, size=2000)
boot = rng.choice(data, size=(400, data.size), replace=True).mean(axis=1)
lo, hi = np.percentile(boot, [2.5, 97.5])

print(f"utilization {utilization:.3f}, stockouts {stockout_rate:.3f}, "
      f"P(3+ matches) {p_three_or_more:.4f}, mean chi2 {chi2.mean():.2f}")
print(f"heading {np.degrees(mean_direction):.1f} deg (R = {resultant:.3f}), "
      f"top-10 share {top10_share:.3f}, RT median {rt_median:.3f} s, p90 {rt_p90:.3f} s")
print(f"bootstrap 95% interval of the mean: [{lo:.3f}, {hi:.3f}]")

# random numbers differ between libraries: the results are statistics, compared loosely
results = {"utilization": utilization, "stockout_rate": stockout_rate,
           "p_three_or_more": p_three_or_more * 10, "match_shares": match_shares,
           "chi2_mean": chi2.mean() / 5, "chi2_var": chi2.var() / 10,
           "mean_direction": mean_direction, "resultant": resultant,
           "top10_share": top10_share, "rt_median": rt_median, "rt_p90": rt_p90,
           "bootstrap_mid": (lo + hi) / 6, "bootstrap_width": (hi - lo) / (lo + hi) * 10,
           "waits_positive": np.mean(wait[1:] >= 0)}
