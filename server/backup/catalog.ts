import { sql, type SQL } from "drizzle-orm";
import type { Database } from "../db/client";

/** Anything that runs SQL: the database or a transaction on it. */
export interface Executor {
  execute: Database["execute"];
}

/** The rows of a query, on either driver (both answer `{ rows }`). */
export async function rowsOf<T>(db: Executor, query: SQL): Promise<T[]> {
  const result = await db.execute(query);
  return (result as unknown as { rows: T[] }).rows;
}

/** `"public"."name"`, quoted whatever the name holds. */
export function qualified(name: string): string {
  return `"public".${quoteIdent(name)}`;
}

export function quoteIdent(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

export interface TableInfo {
  name: string;
  /** Every column, in table order. */
  columns: string[];
  /** The columns an INSERT may set: all but generated ones. */
  insertable: string[];
  primaryKey: string[];
  /** Has a GENERATED ALWAYS AS IDENTITY column: inserting it needs OVERRIDING SYSTEM VALUE. */
  identityAlways: boolean;
  /** Has triggers of its own (not the internal ones of foreign keys). */
  hasTriggers: boolean;
}

/**
 * The base tables of the public schema, parents before the tables whose foreign keys reference
 * them (then by name), so rows can be inserted in this order with every constraint checked.
 */
export async function publicTables(db: Executor): Promise<TableInfo[]> {
  const tables = await rowsOf<{ name: string; has_triggers: boolean }>(
    db,
    sql`select c.relname as name,
          exists (select 1 from pg_trigger t where t.tgrelid = c.oid and not t.tgisinternal) as has_triggers
        from pg_class c
        where c.relnamespace = 'public'::regnamespace and c.relkind in ('r', 'p') and not c.relispartition
        order by c.relname`,
  );
  const columns = await rowsOf<{ table: string; name: string; generated: string; identity: string }>(
    db,
    sql`select c.relname as table, a.attname as name, a.attgenerated::text as generated, a.attidentity::text as identity
        from pg_attribute a join pg_class c on c.oid = a.attrelid
        where c.relnamespace = 'public'::regnamespace and c.relkind in ('r', 'p') and a.attnum > 0 and not a.attisdropped
        order by c.relname, a.attnum`,
  );
  const keys = await rowsOf<{ table: string; name: string }>(
    db,
    sql`select c.relname as table, a.attname as name
        from pg_constraint k
        join pg_class c on c.oid = k.conrelid
        cross join lateral unnest(k.conkey) with ordinality as u(attnum, ord)
        join pg_attribute a on a.attrelid = k.conrelid and a.attnum = u.attnum
        where k.contype = 'p' and c.relnamespace = 'public'::regnamespace
        order by c.relname, u.ord`,
  );
  const references = await rowsOf<{ child: string; parent: string }>(
    db,
    sql`select distinct c.relname as child, p.relname as parent
        from pg_constraint k join pg_class c on c.oid = k.conrelid join pg_class p on p.oid = k.confrelid
        where k.contype = 'f' and c.relnamespace = 'public'::regnamespace and p.relnamespace = 'public'::regnamespace`,
  );

  const byName = new Map<string, TableInfo>();
  for (const t of tables)
    byName.set(t.name, {
      name: t.name,
      columns: [],
      insertable: [],
      primaryKey: [],
      identityAlways: false,
      hasTriggers: t.has_triggers,
    });
  for (const c of columns) {
    const table = byName.get(c.table);
    if (!table) continue;
    table.columns.push(c.name);
    if (c.generated === "") table.insertable.push(c.name);
    if (c.identity === "a") table.identityAlways = true;
  }
  for (const k of keys) byName.get(k.table)?.primaryKey.push(k.name);
  return inDependencyOrder([...byName.values()], references);
}

/** Topological order (Kahn's, by name among equals); self-references are left to one statement. */
function inDependencyOrder(tables: TableInfo[], references: { child: string; parent: string }[]): TableInfo[] {
  const parents = new Map(tables.map((t) => [t.name, new Set<string>()]));
  for (const { child, parent } of references) if (child !== parent) parents.get(child)?.add(parent);
  const ordered: TableInfo[] = [];
  const done = new Set<string>();
  let left = [...tables];
  while (left.length > 0) {
    const ready = left.filter((t) => [...parents.get(t.name)!].every((p) => done.has(p) || !parents.has(p)));
    if (ready.length === 0)
      throw new Error(
        `The tables ${left.map((t) => t.name).join(", ")} reference each other in a cycle; a backup cannot order them`,
      );
    for (const t of ready) {
      ordered.push(t);
      done.add(t.name);
    }
    left = left.filter((t) => !done.has(t.name));
  }
  return ordered;
}

export interface SequenceInfo {
  name: string;
  /** The column it numbers (serial or identity), if any. */
  owner?: { table: string; column: string };
}

export async function publicSequences(db: Executor): Promise<SequenceInfo[]> {
  const rows = await rowsOf<{ name: string; table: string | null; column: string | null }>(
    db,
    sql`select s.relname as name, t.relname as table, a.attname as column
        from pg_class s
        left join pg_depend d on d.classid = 'pg_class'::regclass and d.objid = s.oid
          and d.refclassid = 'pg_class'::regclass and d.deptype in ('a', 'i')
        left join pg_class t on t.oid = d.refobjid
        left join pg_attribute a on a.attrelid = d.refobjid and a.attnum = d.refobjsubid
        where s.relkind = 'S' and s.relnamespace = 'public'::regnamespace
        order by s.relname`,
  );
  return rows.map((r) => ({
    name: r.name,
    ...(r.table && r.column ? { owner: { table: r.table, column: r.column } } : {}),
  }));
}

export async function sequenceState(db: Executor, name: string): Promise<{ lastValue: string; isCalled: boolean }> {
  const [row] = await rowsOf<{ last_value: string; is_called: boolean }>(
    db,
    sql.raw(`select last_value::text as last_value, is_called from ${qualified(name)}`),
  );
  return { lastValue: row!.last_value, isCalled: row!.is_called };
}

/**
 * Settings that make row_to_json's text exact and the same on every server: timestamps in UTC,
 * floats in their shortest exact form, bytea in hex. For the current transaction only.
 */
export async function useExactTextOutput(db: Executor): Promise<void> {
  await db.execute(sql`set local time zone 'UTC'`);
  await db.execute(sql`set local extra_float_digits = 1`);
  await db.execute(sql`set local bytea_output = 'hex'`);
}
