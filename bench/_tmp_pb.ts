const root = Deno.args[0] ?? "/work/main";
const { proxyBudgets } = await import(`${root}/bench/_proxy_budget.ts`);
for (const r of (await proxyBudgets(31)).slice(0, 1)) console.log(root, r.ok, r.name, r.measured);
