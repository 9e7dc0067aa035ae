/** Rotated files of the log named `name`: name-DAY.log and name-DAY.N.log. */
export const rotatedName = (name: string): RegExp => new RegExp(`^${name}-(\\d{4}-\\d{2}-\\d{2})(?:\\.(\\d+))?\\.log$`);
