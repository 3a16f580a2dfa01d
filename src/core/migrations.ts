/**
 * The schema migrations, embedded in the program. An applied migration is never edited; a
 * change is the next file.
 *
 * @module
 */

import init from "../../migrations/0001_init.sql" with { type: "text" };
import toolCalls from "../../migrations/0002_tool_calls.sql" with { type: "text" };
import proxy from "../../migrations/0003_proxy.sql" with { type: "text" };
import search from "../../migrations/0004_search.sql" with { type: "text" };
import host from "../../migrations/0005_host.sql" with { type: "text" };
import memory from "../../migrations/0006_memory.sql" with { type: "text" };
import guard from "../../migrations/0007_guard.sql" with { type: "text" };
import styleArm from "../../migrations/0008_style_arm.sql" with { type: "text" };
import graph from "../../migrations/0009_graph.sql" with { type: "text" };
import delivery from "../../migrations/0010_delivery.sql" with { type: "text" };
import caller from "../../migrations/0011_caller.sql" with { type: "text" };

/** One embedded migration. */
export interface Migration {
  /** Applied in increasing order; recorded in `schema_migrations`. */
  readonly version: number;
  /** The file's name without number and extension. */
  readonly name: string;
  /** The SQL, run in one transaction. */
  readonly sql: string;
}

/** Every migration, in order. */
export const MIGRATIONS: readonly Migration[] = [
  { version: 1, name: "init", sql: init },
  { version: 2, name: "tool_calls", sql: toolCalls },
  { version: 3, name: "proxy", sql: proxy },
  { version: 4, name: "search", sql: search },
  { version: 5, name: "host", sql: host },
  { version: 6, name: "memory", sql: memory },
  { version: 7, name: "guard", sql: guard },
  { version: 8, name: "style_arm", sql: styleArm },
  { version: 9, name: "graph", sql: graph },
  { version: 10, name: "delivery", sql: delivery },
  { version: 11, name: "caller", sql: caller },
];
