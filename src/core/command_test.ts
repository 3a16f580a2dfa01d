import { deepStrictEqual, strictEqual } from "node:assert/strict";
import { familyOf, splitArgv } from "./command.ts";

Deno.test("familyOf() names a command the way agents type it", async (t) => {
  const cases: [string, string, string[]][] = [
    ["git log -5", "git log", ["-5"]],
    ["git -C sub --no-pager log", "git log", []],
    ["/usr/bin/git status -s", "git status", ["-s"]],
    ["git", "git", []],
    ["ls -la", "ls", ["-la"]],
    ["python -m pytest -q tests", "pytest", ["-q", "tests"]],
    ["python3 -m pytest", "pytest", []],
    ["python3.11 -m mypy src", "mypy", ["src"]],
    ["python script.py", "python", ["script.py"]],
    ["npx jest --ci", "jest", ["--ci"]],
    ["npx -y vitest run", "vitest", ["run"]],
    ["npx --package typescript tsc -p .", "tsc", ["-p", "."]],
    ["pnpm exec eslint .", "eslint", ["."]],
    ["pnpm dlx biome check", "biome", ["check"]],
    ["bunx tsc --noEmit", "tsc", ["--noEmit"]],
    ["bun x tsc", "tsc", []],
    ["uv run pytest -x", "pytest", ["-x"]],
    ["bundle exec rspec spec/cart_spec.rb", "rspec", ["spec/cart_spec.rb"]],
    ["./node_modules/.bin/tsc --noEmit", "tsc", ["--noEmit"]],
    ["node --test test/", "node --test", ["--test", "test/"]],
    ["node server.js", "node", ["server.js"]],
    ["cargo test --offline", "cargo test", ["--offline"]],
    ["cargo +nightly clippy", "cargo clippy", []],
    ["go test ./...", "go test", ["./..."]],
    ["go vet ./...", "go vet", ["./..."]],
    ["npm install", "npm install", []],
    ["npm test", "npm test", []],
    ["npm run build -- --watch", "npm run", ["build", "--", "--watch"]],
    ["pnpm -C web install", "pnpm install", []],
    ["deno test -A", "deno test", ["-A"]],
    ["docker ps -a", "docker ps", ["-a"]],
    ["docker --context prod logs web", "docker logs", ["web"]],
    ["kubectl -n kube-system get pods", "kubectl get", ["pods"]],
    ["gh pr list", "gh pr", ["list"]],
    ["terraform plan", "terraform plan", []],
    ["systemctl status nginx", "systemctl status", ["nginx"]],
    ["make -j4", "make", ["-j4"]],
    ["./gradlew build --offline", "gradle", ["build", "--offline"]],
    ["gradle test", "gradle", ["test"]],
    ["./mvnw -q verify", "mvn", ["-q", "verify"]],
    ["dotnet build -c Release", "dotnet build", ["-c", "Release"]],
    ["helm -n prod upgrade shop ./chart", "helm upgrade", ["shop", "./chart"]],
    ["pre-commit run --all-files", "pre-commit run", ["--all-files"]],
    ["ansible-playbook -i hosts site.yml", "ansible-playbook", ["-i", "hosts", "site.yml"]],
    ["npx markdownlint-cli2 docs/*.md", "markdownlint-cli2", ["docs/*.md"]],
  ];
  for (const [line, family, args] of cases) {
    await t.step(line, () => {
      const argv = line.split(" ");
      strictEqual(familyOf(argv), family);
      deepStrictEqual(splitArgv(argv).args, args);
      deepStrictEqual([...splitArgv(argv).prefix, ...splitArgv(argv).args], argv);
    });
  }
});
