// The building blocks of config.json's schema. xInt, xNum, xBool and xColor are the service's
// own keywords (keywords.ts): numbers, booleans and colours may be written as strings.
export const str255 = { type: 'string', maxLength: 255 } as const;
export const int = (min: number, max: number) => ({ xInt: [min, max] });
export const num = (min: number, max: number) => ({ xNum: [min, max] });
export const bool = { xBool: true } as const;
export const url = { type: 'string', maxLength: 2048, format: 'uri', pattern: '^https?://' } as const;
export const ipv4 = { type: 'string', format: 'ipv4' } as const;
export const rgb = { xColor: false } as const;
export const rgba = { xColor: true } as const;
export const names = (extra: object) => ({ type: 'object', propertyNames: { maxLength: 255, minLength: 1 }, ...extra });
