// @ts-nocheck
/* eslint-disable */
// Generated from src/config/schema.ts by `npm run validator` (src/config/validator-source.ts): do not edit.
import { createRequire } from 'node:module';
import { keywordChecks } from './keywords.js';
const require = createRequire(import.meta.url);
"use strict";
export const validate = validate0;
export default validate0;
const schema0 = {"type":"object","additionalProperties":false,"required":["displays"],"properties":{"port":{"xInt":[1025,65535]},"crons":{"type":"array","items":{"type":"object","additionalProperties":false,"required":["type","cron"],"properties":{"type":{"enum":["sendInfo","data","loadLastRequest","url"]},"value":{"type":"string","maxLength":4096},"cron":{"type":"string"},"format":{"enum":["html","json"]}}}},"pollers":{"type":"array","items":{"type":"object","additionalProperties":false,"required":["url","interval"],"properties":{"url":{"type":"string","maxLength":2048,"format":"uri","pattern":"^https?://"},"interval":{"xInt":[1,86400]},"keep":{"xBool":true},"priority":{"xInt":[0,9]},"expires":{"xInt":[1,86400]},"mapper":{"type":"object","additionalProperties":false,"required":["id","layout","areas"],"properties":{"id":{"type":"string","minLength":1,"maxLength":255},"layout":{"type":"string","minLength":1,"maxLength":255},"areas":{"type":"object","propertyNames":{"maxLength":255,"minLength":1},"additionalProperties":{"type":"string","maxLength":1024}}}}}}},"displays":{"type":"object","propertyNames":{"maxLength":255,"minLength":1},"minProperties":1,"additionalProperties":{"type":"object","additionalProperties":false,"required":["displayWidth","displayHeight","layout"],"properties":{"displayName":{"type":"string","maxLength":255},"displayIp":{"type":"string","format":"ipv4"},"displayPort":{"xInt":[1,65535]},"controllerType":{"type":"string","maxLength":255},"confirmIp":{"type":"string","format":"ipv4"},"confirmPort":{"xInt":[1025,65535]},"displayHeight":{"xInt":[1,16384]},"displayWidth":{"xInt":[1,16384]},"infoScreenTtl":{"xInt":[0,86400]},"sensorBrightness":{"xBool":true},"brightnessUrl":{"type":"string","maxLength":2048,"format":"uri","pattern":"^https?://"},"startScreen":{"type":"object","additionalProperties":false,"properties":{"completeUrls":{"type":"string","maxLength":2048,"format":"uri","pattern":"^https?://"},"loadLastRequest":{"xBool":true},"image":{"type":"string","maxLength":255},"imageTtl":{"xInt":[0,86400]}}},"layout":{"type":"object","propertyNames":{"maxLength":255,"minLength":1},"minProperties":1,"additionalProperties":{"type":"object","propertyNames":{"maxLength":255,"minLength":1},"additionalProperties":{"type":"object","additionalProperties":false,"required":["coordinates","type"],"properties":{"coordinates":{"type":"string","pattern":"^\\s*\\d+\\s+\\d+\\s+\\d+\\s+\\d+\\s*$"},"type":{"enum":["static","text","dynamic","image","video","date","audio","web"]},"ttl":{"xInt":[0,31536000]},"defaultValue":{"type":"string","maxLength":255},"params":{"type":"object","propertyNames":{"maxLength":255,"minLength":1},"additionalProperties":{"type":"string","maxLength":2048}},"align":{"enum":["center","right","left"]},"font":{"type":"string","maxLength":255},"fontSize":{"xInt":[1,4000]},"fontColor":{"xColor":false},"backgroundColor":{"xColor":true},"textFromStart":{"xBool":true},"textLiveUpdate":{"xBool":true},"headToTail":{"xInt":[0,1000]},"scrollSpeed":{"xInt":[0,8]},"dispEffect":{"xInt":[1,15]},"clearEffect":{"xInt":[1,15]},"dateOffset":{"xNum":[-14,14]},"dateFormat":{"type":"string","maxLength":255},"xy":{"type":"string","pattern":"^\\s*\\d+\\s+\\d+\\s*$"},"antialias":{"enum":["default","none"]},"wrap":{"xBool":true},"lineSpacing":{"xInt":[0,1000]},"valign":{"enum":["top","middle","bottom"]},"overflow":{"enum":["scroll","pages","scroll-up"]},"pageSeconds":{"xNum":[0.1,86400]},"fit":{"enum":["none","shrink"]},"minFontSize":{"xInt":[1,4000]},"fonts":{"type":"array","maxItems":16,"items":{"type":"string","maxLength":255}},"graphics":{"type":"array","maxItems":64,"items":{"type":"string","maxLength":255}},"markup":{"enum":["none","multi"]},"scrollDirection":{"enum":["left","right","up"]}}}}},"output":{"type":"object","required":["driver"],"properties":{"driver":{"enum":["virtual","fbdev","colorlight","ddp"]}},"discriminator":{"propertyName":"driver"},"oneOf":[{"properties":{"driver":{"const":"virtual"}},"additionalProperties":false},{"properties":{"driver":{"const":"fbdev"},"device":{"type":"string","pattern":"^/dev/"}},"required":["device"],"additionalProperties":false},{"properties":{"driver":{"const":"colorlight"},"interface":{"type":"string","pattern":"^[A-Za-z0-9_.:-]{1,15}$"}},"required":["interface"],"additionalProperties":false},{"properties":{"driver":{"const":"ddp"}},"additionalProperties":false}]},"sensor":{"type":"object","additionalProperties":false,"required":["protocol"],"properties":{"path":{"type":"string","pattern":"^/dev/"},"baudRate":{"xInt":[300,4000000]},"protocol":{"enum":["ascii","modbus-rtu","modbus-tcp"]},"unitId":{"xInt":[0,255]},"register":{"xInt":[0,65535]},"pollMs":{"xInt":[100,3600000]},"host":{"type":"string","minLength":1,"maxLength":255},"port":{"xInt":[1,65535]},"curve":{"type":"array","minItems":2,"items":{"type":"array","minItems":2,"maxItems":2,"items":{"xNum":[0,1000000]}}}}}}}},"latitude":{"xNum":[-90,90]},"longitude":{"xNum":[-180,180]},"timezone":{"type":"string","minLength":1},"logRetentionDays":{"xInt":[1,3650]},"unknownAreaKeys":{"enum":["reject","ignore"]},"https":{"type":"object","additionalProperties":false,"required":["cert","key"],"properties":{"cert":{"type":"string","maxLength":255},"key":{"type":"string","maxLength":255},"port":{"xInt":[1025,65535]}}},"security":{"type":"object","additionalProperties":false,"properties":{"apiKey":{"type":"string","minLength":8},"adminKey":{"type":"string","minLength":8}}},"rateLimit":{"xInt":[1,100000]},"effectDurationMs":{"xInt":[0,10000]},"fps":{"xInt":[1,100]},"urlPortRange":{"type":"array","minItems":2,"maxItems":2,"items":{"xInt":[1,65535]}},"audioDevice":{"type":"string","minLength":1,"maxLength":255},"webRefreshSeconds":{"xInt":[1,86400]},"limits":{"type":"object","additionalProperties":false,"properties":{"headersTimeoutMs":{"xInt":[1000,600000]},"requestTimeoutMs":{"xInt":[1000,3600000]},"keepAliveTimeoutMs":{"xInt":[100,600000]},"idleTimeoutMs":{"xInt":[1000,3600000]},"maxUrlBytes":{"xInt":[256,1048576]},"maxHeaderBytes":{"xInt":[1024,1048576]},"maxConnections":{"xInt":[1,100000]},"maxConnectionsPerClient":{"xInt":[1,100000]},"maxStreams":{"xInt":[1,99999]}}},"network":{"type":"object","additionalProperties":false,"properties":{"interface":{"type":"string","pattern":"^[A-Za-z0-9_.:-]{1,15}$"},"networkdDir":{"type":"string","minLength":1,"maxLength":255,"pattern":"^/"},"rollbackSeconds":{"xInt":[1,3600]}}},"mdns":{"if":{"type":"object"},"then":{"type":"object","additionalProperties":false,"properties":{"enabled":{"xBool":true},"name":{"type":"string","minLength":1,"maxLength":63},"interface":{"type":"string","pattern":"^[A-Za-z0-9_.:-]{1,15}$"}}},"else":{"xBool":true}},"mqtt":{"type":"object","additionalProperties":false,"required":["url"],"properties":{"url":{"type":"string","maxLength":2048,"pattern":"^mqtts?://[^/?#@]+(:\\d{1,5})?/?$"},"username":{"type":"string","minLength":1,"maxLength":255},"password":{"type":"string","maxLength":1024},"cert":{"type":"string","minLength":1,"maxLength":255},"key":{"type":"string","minLength":1,"maxLength":255},"ca":{"type":"string","minLength":1,"maxLength":255},"unit":{"type":"string","pattern":"^[^/+#\\u0000]{1,64}$"},"prefix":{"type":"string","pattern":"^[^/+#\\u0000]{1,64}$"},"groups":{"type":"array","maxItems":32,"uniqueItems":true,"items":{"type":"string","pattern":"^[^/+#\\u0000]{1,64}$"}},"keepalive":{"xInt":[1,3600]},"homeAssistant":{"xBool":true}}},"sensors":{"type":"array","items":{"type":"object","additionalProperties":false,"required":["protocol","displays"],"properties":{"path":{"type":"string","pattern":"^/dev/"},"baudRate":{"xInt":[300,4000000]},"protocol":{"enum":["ascii","modbus-rtu","modbus-tcp"]},"unitId":{"xInt":[0,255]},"register":{"xInt":[0,65535]},"pollMs":{"xInt":[100,3600000]},"host":{"type":"string","minLength":1,"maxLength":255},"port":{"xInt":[1,65535]},"curve":{"type":"array","minItems":2,"items":{"type":"array","minItems":2,"maxItems":2,"items":{"xNum":[0,1000000]}}},"displays":{"type":"array","minItems":1,"items":{"type":"string"}}}}}}};
const func0 = Object.prototype.hasOwnProperty;
const func1 = keywordChecks.xInt;
const func2 = require("ajv/dist/runtime/ucs2length").default;
const func5 = keywordChecks.xBool;
const func43 = keywordChecks.xColor;
const func51 = keywordChecks.xNum;
const formats0 = require("ajv-formats/dist/formats").fullFormats.uri;
const formats2 = /^(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/;
const pattern0 = new RegExp("^https?://", "u");
const pattern3 = new RegExp("^\\s*\\d+\\s+\\d+\\s+\\d+\\s+\\d+\\s*$", "u");
const pattern4 = new RegExp("^\\s*\\d+\\s+\\d+\\s*$", "u");
const pattern5 = new RegExp("^/dev/", "u");
const pattern6 = new RegExp("^[A-Za-z0-9_.:-]{1,15}$", "u");
const pattern9 = new RegExp("^/", "u");
const pattern11 = new RegExp("^mqtts?://[^/?#@]+(:\\d{1,5})?/?$", "u");
const pattern12 = new RegExp("^[^/+#\\u0000]{1,64}$", "u");

function validate0(data, {instancePath="", parentData, parentDataProperty, rootData=data}={}){
let vErrors = null;
let errors = 0;
if(data && typeof data == "object" && !Array.isArray(data)){
if(data.displays === undefined){
const err0 = {instancePath,schemaPath:"#/required",keyword:"required",params:{missingProperty: "displays"},message:"must have required property '"+"displays"+"'"};
if(vErrors === null){
vErrors = [err0];
}
else {
vErrors.push(err0);
}
errors++;
}
for(const key0 in data){
if(!(func0.call(schema0.properties, key0))){
const err1 = {instancePath,schemaPath:"#/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key0},message:"must NOT have additional properties"};
if(vErrors === null){
vErrors = [err1];
}
else {
vErrors.push(err1);
}
errors++;
}
}
if(data.port !== undefined){
const message0 = func1(data.port, [1025,65535]);
if(message0 !== undefined){
const err2 = {instancePath:instancePath+"/port",schemaPath:"#/properties/port/xInt",keyword:"xInt",params:{},message:message0};
if(vErrors === null){
vErrors = [err2];
}
else {
vErrors.push(err2);
}
errors++;
}
}
if(data.crons !== undefined){
let data1 = data.crons;
if(Array.isArray(data1)){
const len0 = data1.length;
for(let i0=0; i0<len0; i0++){
let data2 = data1[i0];
if(data2 && typeof data2 == "object" && !Array.isArray(data2)){
if(data2.type === undefined){
const err3 = {instancePath:instancePath+"/crons/" + i0,schemaPath:"#/properties/crons/items/required",keyword:"required",params:{missingProperty: "type"},message:"must have required property '"+"type"+"'"};
if(vErrors === null){
vErrors = [err3];
}
else {
vErrors.push(err3);
}
errors++;
}
if(data2.cron === undefined){
const err4 = {instancePath:instancePath+"/crons/" + i0,schemaPath:"#/properties/crons/items/required",keyword:"required",params:{missingProperty: "cron"},message:"must have required property '"+"cron"+"'"};
if(vErrors === null){
vErrors = [err4];
}
else {
vErrors.push(err4);
}
errors++;
}
for(const key1 in data2){
if(!((((key1 === "type") || (key1 === "value")) || (key1 === "cron")) || (key1 === "format"))){
const err5 = {instancePath:instancePath+"/crons/" + i0,schemaPath:"#/properties/crons/items/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key1},message:"must NOT have additional properties"};
if(vErrors === null){
vErrors = [err5];
}
else {
vErrors.push(err5);
}
errors++;
}
}
if(data2.type !== undefined){
let data3 = data2.type;
if(!((((data3 === "sendInfo") || (data3 === "data")) || (data3 === "loadLastRequest")) || (data3 === "url"))){
const err6 = {instancePath:instancePath+"/crons/" + i0+"/type",schemaPath:"#/properties/crons/items/properties/type/enum",keyword:"enum",params:{allowedValues: schema0.properties.crons.items.properties.type.enum},message:"must be equal to one of the allowed values"};
if(vErrors === null){
vErrors = [err6];
}
else {
vErrors.push(err6);
}
errors++;
}
}
if(data2.value !== undefined){
let data4 = data2.value;
if(typeof data4 === "string"){
if(func2(data4) > 4096){
const err7 = {instancePath:instancePath+"/crons/" + i0+"/value",schemaPath:"#/properties/crons/items/properties/value/maxLength",keyword:"maxLength",params:{limit: 4096},message:"must NOT have more than 4096 characters"};
if(vErrors === null){
vErrors = [err7];
}
else {
vErrors.push(err7);
}
errors++;
}
}
else {
const err8 = {instancePath:instancePath+"/crons/" + i0+"/value",schemaPath:"#/properties/crons/items/properties/value/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err8];
}
else {
vErrors.push(err8);
}
errors++;
}
}
if(data2.cron !== undefined){
if(typeof data2.cron !== "string"){
const err9 = {instancePath:instancePath+"/crons/" + i0+"/cron",schemaPath:"#/properties/crons/items/properties/cron/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err9];
}
else {
vErrors.push(err9);
}
errors++;
}
}
if(data2.format !== undefined){
let data6 = data2.format;
if(!((data6 === "html") || (data6 === "json"))){
const err10 = {instancePath:instancePath+"/crons/" + i0+"/format",schemaPath:"#/properties/crons/items/properties/format/enum",keyword:"enum",params:{allowedValues: schema0.properties.crons.items.properties.format.enum},message:"must be equal to one of the allowed values"};
if(vErrors === null){
vErrors = [err10];
}
else {
vErrors.push(err10);
}
errors++;
}
}
}
else {
const err11 = {instancePath:instancePath+"/crons/" + i0,schemaPath:"#/properties/crons/items/type",keyword:"type",params:{type: "object"},message:"must be object"};
if(vErrors === null){
vErrors = [err11];
}
else {
vErrors.push(err11);
}
errors++;
}
}
}
else {
const err12 = {instancePath:instancePath+"/crons",schemaPath:"#/properties/crons/type",keyword:"type",params:{type: "array"},message:"must be array"};
if(vErrors === null){
vErrors = [err12];
}
else {
vErrors.push(err12);
}
errors++;
}
}
if(data.pollers !== undefined){
let data7 = data.pollers;
if(Array.isArray(data7)){
const len1 = data7.length;
for(let i1=0; i1<len1; i1++){
let data8 = data7[i1];
if(data8 && typeof data8 == "object" && !Array.isArray(data8)){
if(data8.url === undefined){
const err13 = {instancePath:instancePath+"/pollers/" + i1,schemaPath:"#/properties/pollers/items/required",keyword:"required",params:{missingProperty: "url"},message:"must have required property '"+"url"+"'"};
if(vErrors === null){
vErrors = [err13];
}
else {
vErrors.push(err13);
}
errors++;
}
if(data8.interval === undefined){
const err14 = {instancePath:instancePath+"/pollers/" + i1,schemaPath:"#/properties/pollers/items/required",keyword:"required",params:{missingProperty: "interval"},message:"must have required property '"+"interval"+"'"};
if(vErrors === null){
vErrors = [err14];
}
else {
vErrors.push(err14);
}
errors++;
}
for(const key2 in data8){
if(!((((((key2 === "url") || (key2 === "interval")) || (key2 === "keep")) || (key2 === "priority")) || (key2 === "expires")) || (key2 === "mapper"))){
const err15 = {instancePath:instancePath+"/pollers/" + i1,schemaPath:"#/properties/pollers/items/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key2},message:"must NOT have additional properties"};
if(vErrors === null){
vErrors = [err15];
}
else {
vErrors.push(err15);
}
errors++;
}
}
if(data8.url !== undefined){
let data9 = data8.url;
if(typeof data9 === "string"){
if(func2(data9) > 2048){
const err16 = {instancePath:instancePath+"/pollers/" + i1+"/url",schemaPath:"#/properties/pollers/items/properties/url/maxLength",keyword:"maxLength",params:{limit: 2048},message:"must NOT have more than 2048 characters"};
if(vErrors === null){
vErrors = [err16];
}
else {
vErrors.push(err16);
}
errors++;
}
if(!pattern0.test(data9)){
const err17 = {instancePath:instancePath+"/pollers/" + i1+"/url",schemaPath:"#/properties/pollers/items/properties/url/pattern",keyword:"pattern",params:{pattern: "^https?://"},message:"must match pattern \""+"^https?://"+"\""};
if(vErrors === null){
vErrors = [err17];
}
else {
vErrors.push(err17);
}
errors++;
}
if(!(formats0(data9))){
const err18 = {instancePath:instancePath+"/pollers/" + i1+"/url",schemaPath:"#/properties/pollers/items/properties/url/format",keyword:"format",params:{format: "uri"},message:"must match format \""+"uri"+"\""};
if(vErrors === null){
vErrors = [err18];
}
else {
vErrors.push(err18);
}
errors++;
}
}
else {
const err19 = {instancePath:instancePath+"/pollers/" + i1+"/url",schemaPath:"#/properties/pollers/items/properties/url/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err19];
}
else {
vErrors.push(err19);
}
errors++;
}
}
if(data8.interval !== undefined){
const message1 = func1(data8.interval, [1,86400]);
if(message1 !== undefined){
const err20 = {instancePath:instancePath+"/pollers/" + i1+"/interval",schemaPath:"#/properties/pollers/items/properties/interval/xInt",keyword:"xInt",params:{},message:message1};
if(vErrors === null){
vErrors = [err20];
}
else {
vErrors.push(err20);
}
errors++;
}
}
if(data8.keep !== undefined){
const message2 = func5(data8.keep, true);
if(message2 !== undefined){
const err21 = {instancePath:instancePath+"/pollers/" + i1+"/keep",schemaPath:"#/properties/pollers/items/properties/keep/xBool",keyword:"xBool",params:{},message:message2};
if(vErrors === null){
vErrors = [err21];
}
else {
vErrors.push(err21);
}
errors++;
}
}
if(data8.priority !== undefined){
const message3 = func1(data8.priority, [0,9]);
if(message3 !== undefined){
const err22 = {instancePath:instancePath+"/pollers/" + i1+"/priority",schemaPath:"#/properties/pollers/items/properties/priority/xInt",keyword:"xInt",params:{},message:message3};
if(vErrors === null){
vErrors = [err22];
}
else {
vErrors.push(err22);
}
errors++;
}
}
if(data8.expires !== undefined){
const message4 = func1(data8.expires, [1,86400]);
if(message4 !== undefined){
const err23 = {instancePath:instancePath+"/pollers/" + i1+"/expires",schemaPath:"#/properties/pollers/items/properties/expires/xInt",keyword:"xInt",params:{},message:message4};
if(vErrors === null){
vErrors = [err23];
}
else {
vErrors.push(err23);
}
errors++;
}
}
if(data8.mapper !== undefined){
let data14 = data8.mapper;
if(data14 && typeof data14 == "object" && !Array.isArray(data14)){
if(data14.id === undefined){
const err24 = {instancePath:instancePath+"/pollers/" + i1+"/mapper",schemaPath:"#/properties/pollers/items/properties/mapper/required",keyword:"required",params:{missingProperty: "id"},message:"must have required property '"+"id"+"'"};
if(vErrors === null){
vErrors = [err24];
}
else {
vErrors.push(err24);
}
errors++;
}
if(data14.layout === undefined){
const err25 = {instancePath:instancePath+"/pollers/" + i1+"/mapper",schemaPath:"#/properties/pollers/items/properties/mapper/required",keyword:"required",params:{missingProperty: "layout"},message:"must have required property '"+"layout"+"'"};
if(vErrors === null){
vErrors = [err25];
}
else {
vErrors.push(err25);
}
errors++;
}
if(data14.areas === undefined){
const err26 = {instancePath:instancePath+"/pollers/" + i1+"/mapper",schemaPath:"#/properties/pollers/items/properties/mapper/required",keyword:"required",params:{missingProperty: "areas"},message:"must have required property '"+"areas"+"'"};
if(vErrors === null){
vErrors = [err26];
}
else {
vErrors.push(err26);
}
errors++;
}
for(const key3 in data14){
if(!(((key3 === "id") || (key3 === "layout")) || (key3 === "areas"))){
const err27 = {instancePath:instancePath+"/pollers/" + i1+"/mapper",schemaPath:"#/properties/pollers/items/properties/mapper/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key3},message:"must NOT have additional properties"};
if(vErrors === null){
vErrors = [err27];
}
else {
vErrors.push(err27);
}
errors++;
}
}
if(data14.id !== undefined){
let data15 = data14.id;
if(typeof data15 === "string"){
if(func2(data15) > 255){
const err28 = {instancePath:instancePath+"/pollers/" + i1+"/mapper/id",schemaPath:"#/properties/pollers/items/properties/mapper/properties/id/maxLength",keyword:"maxLength",params:{limit: 255},message:"must NOT have more than 255 characters"};
if(vErrors === null){
vErrors = [err28];
}
else {
vErrors.push(err28);
}
errors++;
}
if(func2(data15) < 1){
const err29 = {instancePath:instancePath+"/pollers/" + i1+"/mapper/id",schemaPath:"#/properties/pollers/items/properties/mapper/properties/id/minLength",keyword:"minLength",params:{limit: 1},message:"must NOT have fewer than 1 characters"};
if(vErrors === null){
vErrors = [err29];
}
else {
vErrors.push(err29);
}
errors++;
}
}
else {
const err30 = {instancePath:instancePath+"/pollers/" + i1+"/mapper/id",schemaPath:"#/properties/pollers/items/properties/mapper/properties/id/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err30];
}
else {
vErrors.push(err30);
}
errors++;
}
}
if(data14.layout !== undefined){
let data16 = data14.layout;
if(typeof data16 === "string"){
if(func2(data16) > 255){
const err31 = {instancePath:instancePath+"/pollers/" + i1+"/mapper/layout",schemaPath:"#/properties/pollers/items/properties/mapper/properties/layout/maxLength",keyword:"maxLength",params:{limit: 255},message:"must NOT have more than 255 characters"};
if(vErrors === null){
vErrors = [err31];
}
else {
vErrors.push(err31);
}
errors++;
}
if(func2(data16) < 1){
const err32 = {instancePath:instancePath+"/pollers/" + i1+"/mapper/layout",schemaPath:"#/properties/pollers/items/properties/mapper/properties/layout/minLength",keyword:"minLength",params:{limit: 1},message:"must NOT have fewer than 1 characters"};
if(vErrors === null){
vErrors = [err32];
}
else {
vErrors.push(err32);
}
errors++;
}
}
else {
const err33 = {instancePath:instancePath+"/pollers/" + i1+"/mapper/layout",schemaPath:"#/properties/pollers/items/properties/mapper/properties/layout/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err33];
}
else {
vErrors.push(err33);
}
errors++;
}
}
if(data14.areas !== undefined){
let data17 = data14.areas;
if(data17 && typeof data17 == "object" && !Array.isArray(data17)){
for(const key4 in data17){
const _errs34 = errors;
if(typeof key4 === "string"){
if(func2(key4) > 255){
const err34 = {instancePath:instancePath+"/pollers/" + i1+"/mapper/areas",schemaPath:"#/properties/pollers/items/properties/mapper/properties/areas/propertyNames/maxLength",keyword:"maxLength",params:{limit: 255},message:"must NOT have more than 255 characters",propertyName:key4};
if(vErrors === null){
vErrors = [err34];
}
else {
vErrors.push(err34);
}
errors++;
}
if(func2(key4) < 1){
const err35 = {instancePath:instancePath+"/pollers/" + i1+"/mapper/areas",schemaPath:"#/properties/pollers/items/properties/mapper/properties/areas/propertyNames/minLength",keyword:"minLength",params:{limit: 1},message:"must NOT have fewer than 1 characters",propertyName:key4};
if(vErrors === null){
vErrors = [err35];
}
else {
vErrors.push(err35);
}
errors++;
}
}
var valid8 = _errs34 === errors;
if(!valid8){
const err36 = {instancePath:instancePath+"/pollers/" + i1+"/mapper/areas",schemaPath:"#/properties/pollers/items/properties/mapper/properties/areas/propertyNames",keyword:"propertyNames",params:{propertyName: key4},message:"property name must be valid"};
if(vErrors === null){
vErrors = [err36];
}
else {
vErrors.push(err36);
}
errors++;
}
}
for(const key5 in data17){
let data18 = data17[key5];
if(typeof data18 === "string"){
if(func2(data18) > 1024){
const err37 = {instancePath:instancePath+"/pollers/" + i1+"/mapper/areas/" + key5.replace(/~/g, "~0").replace(/\//g, "~1"),schemaPath:"#/properties/pollers/items/properties/mapper/properties/areas/additionalProperties/maxLength",keyword:"maxLength",params:{limit: 1024},message:"must NOT have more than 1024 characters"};
if(vErrors === null){
vErrors = [err37];
}
else {
vErrors.push(err37);
}
errors++;
}
}
else {
const err38 = {instancePath:instancePath+"/pollers/" + i1+"/mapper/areas/" + key5.replace(/~/g, "~0").replace(/\//g, "~1"),schemaPath:"#/properties/pollers/items/properties/mapper/properties/areas/additionalProperties/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err38];
}
else {
vErrors.push(err38);
}
errors++;
}
}
}
else {
const err39 = {instancePath:instancePath+"/pollers/" + i1+"/mapper/areas",schemaPath:"#/properties/pollers/items/properties/mapper/properties/areas/type",keyword:"type",params:{type: "object"},message:"must be object"};
if(vErrors === null){
vErrors = [err39];
}
else {
vErrors.push(err39);
}
errors++;
}
}
}
else {
const err40 = {instancePath:instancePath+"/pollers/" + i1+"/mapper",schemaPath:"#/properties/pollers/items/properties/mapper/type",keyword:"type",params:{type: "object"},message:"must be object"};
if(vErrors === null){
vErrors = [err40];
}
else {
vErrors.push(err40);
}
errors++;
}
}
}
else {
const err41 = {instancePath:instancePath+"/pollers/" + i1,schemaPath:"#/properties/pollers/items/type",keyword:"type",params:{type: "object"},message:"must be object"};
if(vErrors === null){
vErrors = [err41];
}
else {
vErrors.push(err41);
}
errors++;
}
}
}
else {
const err42 = {instancePath:instancePath+"/pollers",schemaPath:"#/properties/pollers/type",keyword:"type",params:{type: "array"},message:"must be array"};
if(vErrors === null){
vErrors = [err42];
}
else {
vErrors.push(err42);
}
errors++;
}
}
if(data.displays !== undefined){
let data19 = data.displays;
if(data19 && typeof data19 == "object" && !Array.isArray(data19)){
if(Object.keys(data19).length < 1){
const err43 = {instancePath:instancePath+"/displays",schemaPath:"#/properties/displays/minProperties",keyword:"minProperties",params:{limit: 1},message:"must NOT have fewer than 1 properties"};
if(vErrors === null){
vErrors = [err43];
}
else {
vErrors.push(err43);
}
errors++;
}
for(const key6 in data19){
const _errs40 = errors;
if(typeof key6 === "string"){
if(func2(key6) > 255){
const err44 = {instancePath:instancePath+"/displays",schemaPath:"#/properties/displays/propertyNames/maxLength",keyword:"maxLength",params:{limit: 255},message:"must NOT have more than 255 characters",propertyName:key6};
if(vErrors === null){
vErrors = [err44];
}
else {
vErrors.push(err44);
}
errors++;
}
if(func2(key6) < 1){
const err45 = {instancePath:instancePath+"/displays",schemaPath:"#/properties/displays/propertyNames/minLength",keyword:"minLength",params:{limit: 1},message:"must NOT have fewer than 1 characters",propertyName:key6};
if(vErrors === null){
vErrors = [err45];
}
else {
vErrors.push(err45);
}
errors++;
}
}
var valid10 = _errs40 === errors;
if(!valid10){
const err46 = {instancePath:instancePath+"/displays",schemaPath:"#/properties/displays/propertyNames",keyword:"propertyNames",params:{propertyName: key6},message:"property name must be valid"};
if(vErrors === null){
vErrors = [err46];
}
else {
vErrors.push(err46);
}
errors++;
}
}
for(const key7 in data19){
let data20 = data19[key7];
if(data20 && typeof data20 == "object" && !Array.isArray(data20)){
if(data20.displayWidth === undefined){
const err47 = {instancePath:instancePath+"/displays/" + key7.replace(/~/g, "~0").replace(/\//g, "~1"),schemaPath:"#/properties/displays/additionalProperties/required",keyword:"required",params:{missingProperty: "displayWidth"},message:"must have required property '"+"displayWidth"+"'"};
if(vErrors === null){
vErrors = [err47];
}
else {
vErrors.push(err47);
}
errors++;
}
if(data20.displayHeight === undefined){
const err48 = {instancePath:instancePath+"/displays/" + key7.replace(/~/g, "~0").replace(/\//g, "~1"),schemaPath:"#/properties/displays/additionalProperties/required",keyword:"required",params:{missingProperty: "displayHeight"},message:"must have required property '"+"displayHeight"+"'"};
if(vErrors === null){
vErrors = [err48];
}
else {
vErrors.push(err48);
}
errors++;
}
if(data20.layout === undefined){
const err49 = {instancePath:instancePath+"/displays/" + key7.replace(/~/g, "~0").replace(/\//g, "~1"),schemaPath:"#/properties/displays/additionalProperties/required",keyword:"required",params:{missingProperty: "layout"},message:"must have required property '"+"layout"+"'"};
if(vErrors === null){
vErrors = [err49];
}
else {
vErrors.push(err49);
}
errors++;
}
for(const key8 in data20){
if(!(func0.call(schema0.properties.displays.additionalProperties.properties, key8))){
const err50 = {instancePath:instancePath+"/displays/" + key7.replace(/~/g, "~0").replace(/\//g, "~1"),schemaPath:"#/properties/displays/additionalProperties/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key8},message:"must NOT have additional properties"};
if(vErrors === null){
vErrors = [err50];
}
else {
vErrors.push(err50);
}
errors++;
}
}
if(data20.displayName !== undefined){
let data21 = data20.displayName;
if(typeof data21 === "string"){
if(func2(data21) > 255){
const err51 = {instancePath:instancePath+"/displays/" + key7.replace(/~/g, "~0").replace(/\//g, "~1")+"/displayName",schemaPath:"#/properties/displays/additionalProperties/properties/displayName/maxLength",keyword:"maxLength",params:{limit: 255},message:"must NOT have more than 255 characters"};
if(vErrors === null){
vErrors = [err51];
}
else {
vErrors.push(err51);
}
errors++;
}
}
else {
const err52 = {instancePath:instancePath+"/displays/" + key7.replace(/~/g, "~0").replace(/\//g, "~1")+"/displayName",schemaPath:"#/properties/displays/additionalProperties/properties/displayName/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err52];
}
else {
vErrors.push(err52);
}
errors++;
}
}
if(data20.displayIp !== undefined){
let data22 = data20.displayIp;
if(typeof data22 === "string"){
if(!(formats2.test(data22))){
const err53 = {instancePath:instancePath+"/displays/" + key7.replace(/~/g, "~0").replace(/\//g, "~1")+"/displayIp",schemaPath:"#/properties/displays/additionalProperties/properties/displayIp/format",keyword:"format",params:{format: "ipv4"},message:"must match format \""+"ipv4"+"\""};
if(vErrors === null){
vErrors = [err53];
}
else {
vErrors.push(err53);
}
errors++;
}
}
else {
const err54 = {instancePath:instancePath+"/displays/" + key7.replace(/~/g, "~0").replace(/\//g, "~1")+"/displayIp",schemaPath:"#/properties/displays/additionalProperties/properties/displayIp/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err54];
}
else {
vErrors.push(err54);
}
errors++;
}
}
if(data20.displayPort !== undefined){
const message5 = func1(data20.displayPort, [1,65535]);
if(message5 !== undefined){
const err55 = {instancePath:instancePath+"/displays/" + key7.replace(/~/g, "~0").replace(/\//g, "~1")+"/displayPort",schemaPath:"#/properties/displays/additionalProperties/properties/displayPort/xInt",keyword:"xInt",params:{},message:message5};
if(vErrors === null){
vErrors = [err55];
}
else {
vErrors.push(err55);
}
errors++;
}
}
if(data20.controllerType !== undefined){
let data24 = data20.controllerType;
if(typeof data24 === "string"){
if(func2(data24) > 255){
const err56 = {instancePath:instancePath+"/displays/" + key7.replace(/~/g, "~0").replace(/\//g, "~1")+"/controllerType",schemaPath:"#/properties/displays/additionalProperties/properties/controllerType/maxLength",keyword:"maxLength",params:{limit: 255},message:"must NOT have more than 255 characters"};
if(vErrors === null){
vErrors = [err56];
}
else {
vErrors.push(err56);
}
errors++;
}
}
else {
const err57 = {instancePath:instancePath+"/displays/" + key7.replace(/~/g, "~0").replace(/\//g, "~1")+"/controllerType",schemaPath:"#/properties/displays/additionalProperties/properties/controllerType/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err57];
}
else {
vErrors.push(err57);
}
errors++;
}
}
if(data20.confirmIp !== undefined){
let data25 = data20.confirmIp;
if(typeof data25 === "string"){
if(!(formats2.test(data25))){
const err58 = {instancePath:instancePath+"/displays/" + key7.replace(/~/g, "~0").replace(/\//g, "~1")+"/confirmIp",schemaPath:"#/properties/displays/additionalProperties/properties/confirmIp/format",keyword:"format",params:{format: "ipv4"},message:"must match format \""+"ipv4"+"\""};
if(vErrors === null){
vErrors = [err58];
}
else {
vErrors.push(err58);
}
errors++;
}
}
else {
const err59 = {instancePath:instancePath+"/displays/" + key7.replace(/~/g, "~0").replace(/\//g, "~1")+"/confirmIp",schemaPath:"#/properties/displays/additionalProperties/properties/confirmIp/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err59];
}
else {
vErrors.push(err59);
}
errors++;
}
}
if(data20.confirmPort !== undefined){
const message6 = func1(data20.confirmPort, [1025,65535]);
if(message6 !== undefined){
const err60 = {instancePath:instancePath+"/displays/" + key7.replace(/~/g, "~0").replace(/\//g, "~1")+"/confirmPort",schemaPath:"#/properties/displays/additionalProperties/properties/confirmPort/xInt",keyword:"xInt",params:{},message:message6};
if(vErrors === null){
vErrors = [err60];
}
else {
vErrors.push(err60);
}
errors++;
}
}
if(data20.displayHeight !== undefined){
const message7 = func1(data20.displayHeight, [1,16384]);
if(message7 !== undefined){
const err61 = {instancePath:instancePath+"/displays/" + key7.replace(/~/g, "~0").replace(/\//g, "~1")+"/displayHeight",schemaPath:"#/properties/displays/additionalProperties/properties/displayHeight/xInt",keyword:"xInt",params:{},message:message7};
if(vErrors === null){
vErrors = [err61];
}
else {
vErrors.push(err61);
}
errors++;
}
}
if(data20.displayWidth !== undefined){
const message8 = func1(data20.displayWidth, [1,16384]);
if(message8 !== undefined){
const err62 = {instancePath:instancePath+"/displays/" + key7.replace(/~/g, "~0").replace(/\//g, "~1")+"/displayWidth",schemaPath:"#/properties/displays/additionalProperties/properties/displayWidth/xInt",keyword:"xInt",params:{},message:message8};
if(vErrors === null){
vErrors = [err62];
}
else {
vErrors.push(err62);
}
errors++;
}
}
if(data20.infoScreenTtl !== undefined){
const message9 = func1(data20.infoScreenTtl, [0,86400]);
if(message9 !== undefined){
const err63 = {instancePath:instancePath+"/displays/" + key7.replace(/~/g, "~0").replace(/\//g, "~1")+"/infoScreenTtl",schemaPath:"#/properties/displays/additionalProperties/properties/infoScreenTtl/xInt",keyword:"xInt",params:{},message:message9};
if(vErrors === null){
vErrors = [err63];
}
else {
vErrors.push(err63);
}
errors++;
}
}
if(data20.sensorBrightness !== undefined){
const message10 = func5(data20.sensorBrightness, true);
if(message10 !== undefined){
const err64 = {instancePath:instancePath+"/displays/" + key7.replace(/~/g, "~0").replace(/\//g, "~1")+"/sensorBrightness",schemaPath:"#/properties/displays/additionalProperties/properties/sensorBrightness/xBool",keyword:"xBool",params:{},message:message10};
if(vErrors === null){
vErrors = [err64];
}
else {
vErrors.push(err64);
}
errors++;
}
}
if(data20.brightnessUrl !== undefined){
let data31 = data20.brightnessUrl;
if(typeof data31 === "string"){
if(func2(data31) > 2048){
const err65 = {instancePath:instancePath+"/displays/" + key7.replace(/~/g, "~0").replace(/\//g, "~1")+"/brightnessUrl",schemaPath:"#/properties/displays/additionalProperties/properties/brightnessUrl/maxLength",keyword:"maxLength",params:{limit: 2048},message:"must NOT have more than 2048 characters"};
if(vErrors === null){
vErrors = [err65];
}
else {
vErrors.push(err65);
}
errors++;
}
if(!pattern0.test(data31)){
const err66 = {instancePath:instancePath+"/displays/" + key7.replace(/~/g, "~0").replace(/\//g, "~1")+"/brightnessUrl",schemaPath:"#/properties/displays/additionalProperties/properties/brightnessUrl/pattern",keyword:"pattern",params:{pattern: "^https?://"},message:"must match pattern \""+"^https?://"+"\""};
if(vErrors === null){
vErrors = [err66];
}
else {
vErrors.push(err66);
}
errors++;
}
if(!(formats0(data31))){
const err67 = {instancePath:instancePath+"/displays/" + key7.replace(/~/g, "~0").replace(/\//g, "~1")+"/brightnessUrl",schemaPath:"#/properties/displays/additionalProperties/properties/brightnessUrl/format",keyword:"format",params:{format: "uri"},message:"must match format \""+"uri"+"\""};
if(vErrors === null){
vErrors = [err67];
}
else {
vErrors.push(err67);
}
errors++;
}
}
else {
const err68 = {instancePath:instancePath+"/displays/" + key7.replace(/~/g, "~0").replace(/\//g, "~1")+"/brightnessUrl",schemaPath:"#/properties/displays/additionalProperties/properties/brightnessUrl/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err68];
}
else {
vErrors.push(err68);
}
errors++;
}
}
if(data20.startScreen !== undefined){
let data32 = data20.startScreen;
if(data32 && typeof data32 == "object" && !Array.isArray(data32)){
for(const key9 in data32){
if(!((((key9 === "completeUrls") || (key9 === "loadLastRequest")) || (key9 === "image")) || (key9 === "imageTtl"))){
const err69 = {instancePath:instancePath+"/displays/" + key7.replace(/~/g, "~0").replace(/\//g, "~1")+"/startScreen",schemaPath:"#/properties/displays/additionalProperties/properties/startScreen/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key9},message:"must NOT have additional properties"};
if(vErrors === null){
vErrors = [err69];
}
else {
vErrors.push(err69);
}
errors++;
}
}
if(data32.completeUrls !== undefined){
let data33 = data32.completeUrls;
if(typeof data33 === "string"){
if(func2(data33) > 2048){
const err70 = {instancePath:instancePath+"/displays/" + key7.replace(/~/g, "~0").replace(/\//g, "~1")+"/startScreen/completeUrls",schemaPath:"#/properties/displays/additionalProperties/properties/startScreen/properties/completeUrls/maxLength",keyword:"maxLength",params:{limit: 2048},message:"must NOT have more than 2048 characters"};
if(vErrors === null){
vErrors = [err70];
}
else {
vErrors.push(err70);
}
errors++;
}
if(!pattern0.test(data33)){
const err71 = {instancePath:instancePath+"/displays/" + key7.replace(/~/g, "~0").replace(/\//g, "~1")+"/startScreen/completeUrls",schemaPath:"#/properties/displays/additionalProperties/properties/startScreen/properties/completeUrls/pattern",keyword:"pattern",params:{pattern: "^https?://"},message:"must match pattern \""+"^https?://"+"\""};
if(vErrors === null){
vErrors = [err71];
}
else {
vErrors.push(err71);
}
errors++;
}
if(!(formats0(data33))){
const err72 = {instancePath:instancePath+"/displays/" + key7.replace(/~/g, "~0").replace(/\//g, "~1")+"/startScreen/completeUrls",schemaPath:"#/properties/displays/additionalProperties/properties/startScreen/properties/completeUrls/format",keyword:"format",params:{format: "uri"},message:"must match format \""+"uri"+"\""};
if(vErrors === null){
vErrors = [err72];
}
else {
vErrors.push(err72);
}
errors++;
}
}
else {
const err73 = {instancePath:instancePath+"/displays/" + key7.replace(/~/g, "~0").replace(/\//g, "~1")+"/startScreen/completeUrls",schemaPath:"#/properties/displays/additionalProperties/properties/startScreen/properties/completeUrls/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err73];
}
else {
vErrors.push(err73);
}
errors++;
}
}
if(data32.loadLastRequest !== undefined){
const message11 = func5(data32.loadLastRequest, true);
if(message11 !== undefined){
const err74 = {instancePath:instancePath+"/displays/" + key7.replace(/~/g, "~0").replace(/\//g, "~1")+"/startScreen/loadLastRequest",schemaPath:"#/properties/displays/additionalProperties/properties/startScreen/properties/loadLastRequest/xBool",keyword:"xBool",params:{},message:message11};
if(vErrors === null){
vErrors = [err74];
}
else {
vErrors.push(err74);
}
errors++;
}
}
if(data32.image !== undefined){
let data35 = data32.image;
if(typeof data35 === "string"){
if(func2(data35) > 255){
const err75 = {instancePath:instancePath+"/displays/" + key7.replace(/~/g, "~0").replace(/\//g, "~1")+"/startScreen/image",schemaPath:"#/properties/displays/additionalProperties/properties/startScreen/properties/image/maxLength",keyword:"maxLength",params:{limit: 255},message:"must NOT have more than 255 characters"};
if(vErrors === null){
vErrors = [err75];
}
else {
vErrors.push(err75);
}
errors++;
}
}
else {
const err76 = {instancePath:instancePath+"/displays/" + key7.replace(/~/g, "~0").replace(/\//g, "~1")+"/startScreen/image",schemaPath:"#/properties/displays/additionalProperties/properties/startScreen/properties/image/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err76];
}
else {
vErrors.push(err76);
}
errors++;
}
}
if(data32.imageTtl !== undefined){
const message12 = func1(data32.imageTtl, [0,86400]);
if(message12 !== undefined){
const err77 = {instancePath:instancePath+"/displays/" + key7.replace(/~/g, "~0").replace(/\//g, "~1")+"/startScreen/imageTtl",schemaPath:"#/properties/displays/additionalProperties/properties/startScreen/properties/imageTtl/xInt",keyword:"xInt",params:{},message:message12};
if(vErrors === null){
vErrors = [err77];
}
else {
vErrors.push(err77);
}
errors++;
}
}
}
else {
const err78 = {instancePath:instancePath+"/displays/" + key7.replace(/~/g, "~0").replace(/\//g, "~1")+"/startScreen",schemaPath:"#/properties/displays/additionalProperties/properties/startScreen/type",keyword:"type",params:{type: "object"},message:"must be object"};
if(vErrors === null){
vErrors = [err78];
}
else {
vErrors.push(err78);
}
errors++;
}
}
if(data20.layout !== undefined){
let data37 = data20.layout;
if(data37 && typeof data37 == "object" && !Array.isArray(data37)){
if(Object.keys(data37).length < 1){
const err79 = {instancePath:instancePath+"/displays/" + key7.replace(/~/g, "~0").replace(/\//g, "~1")+"/layout",schemaPath:"#/properties/displays/additionalProperties/properties/layout/minProperties",keyword:"minProperties",params:{limit: 1},message:"must NOT have fewer than 1 properties"};
if(vErrors === null){
vErrors = [err79];
}
else {
vErrors.push(err79);
}
errors++;
}
for(const key10 in data37){
const _errs72 = errors;
if(typeof key10 === "string"){
if(func2(key10) > 255){
const err80 = {instancePath:instancePath+"/displays/" + key7.replace(/~/g, "~0").replace(/\//g, "~1")+"/layout",schemaPath:"#/properties/displays/additionalProperties/properties/layout/propertyNames/maxLength",keyword:"maxLength",params:{limit: 255},message:"must NOT have more than 255 characters",propertyName:key10};
if(vErrors === null){
vErrors = [err80];
}
else {
vErrors.push(err80);
}
errors++;
}
if(func2(key10) < 1){
const err81 = {instancePath:instancePath+"/displays/" + key7.replace(/~/g, "~0").replace(/\//g, "~1")+"/layout",schemaPath:"#/properties/displays/additionalProperties/properties/layout/propertyNames/minLength",keyword:"minLength",params:{limit: 1},message:"must NOT have fewer than 1 characters",propertyName:key10};
if(vErrors === null){
vErrors = [err81];
}
else {
vErrors.push(err81);
}
errors++;
}
}
var valid14 = _errs72 === errors;
if(!valid14){
const err82 = {instancePath:instancePath+"/displays/" + key7.replace(/~/g, "~0").replace(/\//g, "~1")+"/layout",schemaPath:"#/properties/displays/additionalProperties/properties/layout/propertyNames",keyword:"propertyNames",params:{propertyName: key10},message:"property name must be valid"};
if(vErrors === null){
vErrors = [err82];
}
else {
vErrors.push(err82);
}
errors++;
}
}
for(const key11 in data37){
let data38 = data37[key11];
if(data38 && typeof data38 == "object" && !Array.isArray(data38)){
for(const key12 in data38){
const _errs76 = errors;
if(typeof key12 === "string"){
if(func2(key12) > 255){
const err83 = {instancePath:instancePath+"/displays/" + key7.replace(/~/g, "~0").replace(/\//g, "~1")+"/layout/" + key11.replace(/~/g, "~0").replace(/\//g, "~1"),schemaPath:"#/properties/displays/additionalProperties/properties/layout/additionalProperties/propertyNames/maxLength",keyword:"maxLength",params:{limit: 255},message:"must NOT have more than 255 characters",propertyName:key12};
if(vErrors === null){
vErrors = [err83];
}
else {
vErrors.push(err83);
}
errors++;
}
if(func2(key12) < 1){
const err84 = {instancePath:instancePath+"/displays/" + key7.replace(/~/g, "~0").replace(/\//g, "~1")+"/layout/" + key11.replace(/~/g, "~0").replace(/\//g, "~1"),schemaPath:"#/properties/displays/additionalProperties/properties/layout/additionalProperties/propertyNames/minLength",keyword:"minLength",params:{limit: 1},message:"must NOT have fewer than 1 characters",propertyName:key12};
if(vErrors === null){
vErrors = [err84];
}
else {
vErrors.push(err84);
}
errors++;
}
}
var valid16 = _errs76 === errors;
if(!valid16){
const err85 = {instancePath:instancePath+"/displays/" + key7.replace(/~/g, "~0").replace(/\//g, "~1")+"/layout/" + key11.replace(/~/g, "~0").replace(/\//g, "~1"),schemaPath:"#/properties/displays/additionalProperties/properties/layout/additionalProperties/propertyNames",keyword:"propertyNames",params:{propertyName: key12},message:"property name must be valid"};
if(vErrors === null){
vErrors = [err85];
}
else {
vErrors.push(err85);
}
errors++;
}
}
for(const key13 in data38){
let data39 = data38[key13];
if(data39 && typeof data39 == "object" && !Array.isArray(data39)){
if(data39.coordinates === undefined){
const err86 = {instancePath:instancePath+"/displays/" + key7.replace(/~/g, "~0").replace(/\//g, "~1")+"/layout/" + key11.replace(/~/g, "~0").replace(/\//g, "~1")+"/" + key13.replace(/~/g, "~0").replace(/\//g, "~1"),schemaPath:"#/properties/displays/additionalProperties/properties/layout/additionalProperties/additionalProperties/required",keyword:"required",params:{missingProperty: "coordinates"},message:"must have required property '"+"coordinates"+"'"};
if(vErrors === null){
vErrors = [err86];
}
else {
vErrors.push(err86);
}
errors++;
}
if(data39.type === undefined){
const err87 = {instancePath:instancePath+"/displays/" + key7.replace(/~/g, "~0").replace(/\//g, "~1")+"/layout/" + key11.replace(/~/g, "~0").replace(/\//g, "~1")+"/" + key13.replace(/~/g, "~0").replace(/\//g, "~1"),schemaPath:"#/properties/displays/additionalProperties/properties/layout/additionalProperties/additionalProperties/required",keyword:"required",params:{missingProperty: "type"},message:"must have required property '"+"type"+"'"};
if(vErrors === null){
vErrors = [err87];
}
else {
vErrors.push(err87);
}
errors++;
}
for(const key14 in data39){
if(!(func0.call(schema0.properties.displays.additionalProperties.properties.layout.additionalProperties.additionalProperties.properties, key14))){
const err88 = {instancePath:instancePath+"/displays/" + key7.replace(/~/g, "~0").replace(/\//g, "~1")+"/layout/" + key11.replace(/~/g, "~0").replace(/\//g, "~1")+"/" + key13.replace(/~/g, "~0").replace(/\//g, "~1"),schemaPath:"#/properties/displays/additionalProperties/properties/layout/additionalProperties/additionalProperties/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key14},message:"must NOT have additional properties"};
if(vErrors === null){
vErrors = [err88];
}
else {
vErrors.push(err88);
}
errors++;
}
}
if(data39.coordinates !== undefined){
let data40 = data39.coordinates;
if(typeof data40 === "string"){
if(!pattern3.test(data40)){
const err89 = {instancePath:instancePath+"/displays/" + key7.replace(/~/g, "~0").replace(/\//g, "~1")+"/layout/" + key11.replace(/~/g, "~0").replace(/\//g, "~1")+"/" + key13.replace(/~/g, "~0").replace(/\//g, "~1")+"/coordinates",schemaPath:"#/properties/displays/additionalProperties/properties/layout/additionalProperties/additionalProperties/properties/coordinates/pattern",keyword:"pattern",params:{pattern: "^\\s*\\d+\\s+\\d+\\s+\\d+\\s+\\d+\\s*$"},message:"must match pattern \""+"^\\s*\\d+\\s+\\d+\\s+\\d+\\s+\\d+\\s*$"+"\""};
if(vErrors === null){
vErrors = [err89];
}
else {
vErrors.push(err89);
}
errors++;
}
}
else {
const err90 = {instancePath:instancePath+"/displays/" + key7.replace(/~/g, "~0").replace(/\//g, "~1")+"/layout/" + key11.replace(/~/g, "~0").replace(/\//g, "~1")+"/" + key13.replace(/~/g, "~0").replace(/\//g, "~1")+"/coordinates",schemaPath:"#/properties/displays/additionalProperties/properties/layout/additionalProperties/additionalProperties/properties/coordinates/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err90];
}
else {
vErrors.push(err90);
}
errors++;
}
}
if(data39.type !== undefined){
let data41 = data39.type;
if(!((((((((data41 === "static") || (data41 === "text")) || (data41 === "dynamic")) || (data41 === "image")) || (data41 === "video")) || (data41 === "date")) || (data41 === "audio")) || (data41 === "web"))){
const err91 = {instancePath:instancePath+"/displays/" + key7.replace(/~/g, "~0").replace(/\//g, "~1")+"/layout/" + key11.replace(/~/g, "~0").replace(/\//g, "~1")+"/" + key13.replace(/~/g, "~0").replace(/\//g, "~1")+"/type",schemaPath:"#/properties/displays/additionalProperties/properties/layout/additionalProperties/additionalProperties/properties/type/enum",keyword:"enum",params:{allowedValues: schema0.properties.displays.additionalProperties.properties.layout.additionalProperties.additionalProperties.properties.type.enum},message:"must be equal to one of the allowed values"};
if(vErrors === null){
vErrors = [err91];
}
else {
vErrors.push(err91);
}
errors++;
}
}
if(data39.ttl !== undefined){
const message13 = func1(data39.ttl, [0,31536000]);
if(message13 !== undefined){
const err92 = {instancePath:instancePath+"/displays/" + key7.replace(/~/g, "~0").replace(/\//g, "~1")+"/layout/" + key11.replace(/~/g, "~0").replace(/\//g, "~1")+"/" + key13.replace(/~/g, "~0").replace(/\//g, "~1")+"/ttl",schemaPath:"#/properties/displays/additionalProperties/properties/layout/additionalProperties/additionalProperties/properties/ttl/xInt",keyword:"xInt",params:{},message:message13};
if(vErrors === null){
vErrors = [err92];
}
else {
vErrors.push(err92);
}
errors++;
}
}
if(data39.defaultValue !== undefined){
let data43 = data39.defaultValue;
if(typeof data43 === "string"){
if(func2(data43) > 255){
const err93 = {instancePath:instancePath+"/displays/" + key7.replace(/~/g, "~0").replace(/\//g, "~1")+"/layout/" + key11.replace(/~/g, "~0").replace(/\//g, "~1")+"/" + key13.replace(/~/g, "~0").replace(/\//g, "~1")+"/defaultValue",schemaPath:"#/properties/displays/additionalProperties/properties/layout/additionalProperties/additionalProperties/properties/defaultValue/maxLength",keyword:"maxLength",params:{limit: 255},message:"must NOT have more than 255 characters"};
if(vErrors === null){
vErrors = [err93];
}
else {
vErrors.push(err93);
}
errors++;
}
}
else {
const err94 = {instancePath:instancePath+"/displays/" + key7.replace(/~/g, "~0").replace(/\//g, "~1")+"/layout/" + key11.replace(/~/g, "~0").replace(/\//g, "~1")+"/" + key13.replace(/~/g, "~0").replace(/\//g, "~1")+"/defaultValue",schemaPath:"#/properties/displays/additionalProperties/properties/layout/additionalProperties/additionalProperties/properties/defaultValue/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err94];
}
else {
vErrors.push(err94);
}
errors++;
}
}
if(data39.params !== undefined){
let data44 = data39.params;
if(data44 && typeof data44 == "object" && !Array.isArray(data44)){
for(const key15 in data44){
const _errs89 = errors;
if(typeof key15 === "string"){
if(func2(key15) > 255){
const err95 = {instancePath:instancePath+"/displays/" + key7.replace(/~/g, "~0").replace(/\//g, "~1")+"/layout/" + key11.replace(/~/g, "~0").replace(/\//g, "~1")+"/" + key13.replace(/~/g, "~0").replace(/\//g, "~1")+"/params",schemaPath:"#/properties/displays/additionalProperties/properties/layout/additionalProperties/additionalProperties/properties/params/propertyNames/maxLength",keyword:"maxLength",params:{limit: 255},message:"must NOT have more than 255 characters",propertyName:key15};
if(vErrors === null){
vErrors = [err95];
}
else {
vErrors.push(err95);
}
errors++;
}
if(func2(key15) < 1){
const err96 = {instancePath:instancePath+"/displays/" + key7.replace(/~/g, "~0").replace(/\//g, "~1")+"/layout/" + key11.replace(/~/g, "~0").replace(/\//g, "~1")+"/" + key13.replace(/~/g, "~0").replace(/\//g, "~1")+"/params",schemaPath:"#/properties/displays/additionalProperties/properties/layout/additionalProperties/additionalProperties/properties/params/propertyNames/minLength",keyword:"minLength",params:{limit: 1},message:"must NOT have fewer than 1 characters",propertyName:key15};
if(vErrors === null){
vErrors = [err96];
}
else {
vErrors.push(err96);
}
errors++;
}
}
var valid19 = _errs89 === errors;
if(!valid19){
const err97 = {instancePath:instancePath+"/displays/" + key7.replace(/~/g, "~0").replace(/\//g, "~1")+"/layout/" + key11.replace(/~/g, "~0").replace(/\//g, "~1")+"/" + key13.replace(/~/g, "~0").replace(/\//g, "~1")+"/params",schemaPath:"#/properties/displays/additionalProperties/properties/layout/additionalProperties/additionalProperties/properties/params/propertyNames",keyword:"propertyNames",params:{propertyName: key15},message:"property name must be valid"};
if(vErrors === null){
vErrors = [err97];
}
else {
vErrors.push(err97);
}
errors++;
}
}
for(const key16 in data44){
let data45 = data44[key16];
if(typeof data45 === "string"){
if(func2(data45) > 2048){
const err98 = {instancePath:instancePath+"/displays/" + key7.replace(/~/g, "~0").replace(/\//g, "~1")+"/layout/" + key11.replace(/~/g, "~0").replace(/\//g, "~1")+"/" + key13.replace(/~/g, "~0").replace(/\//g, "~1")+"/params/" + key16.replace(/~/g, "~0").replace(/\//g, "~1"),schemaPath:"#/properties/displays/additionalProperties/properties/layout/additionalProperties/additionalProperties/properties/params/additionalProperties/maxLength",keyword:"maxLength",params:{limit: 2048},message:"must NOT have more than 2048 characters"};
if(vErrors === null){
vErrors = [err98];
}
else {
vErrors.push(err98);
}
errors++;
}
}
else {
const err99 = {instancePath:instancePath+"/displays/" + key7.replace(/~/g, "~0").replace(/\//g, "~1")+"/layout/" + key11.replace(/~/g, "~0").replace(/\//g, "~1")+"/" + key13.replace(/~/g, "~0").replace(/\//g, "~1")+"/params/" + key16.replace(/~/g, "~0").replace(/\//g, "~1"),schemaPath:"#/properties/displays/additionalProperties/properties/layout/additionalProperties/additionalProperties/properties/params/additionalProperties/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err99];
}
else {
vErrors.push(err99);
}
errors++;
}
}
}
else {
const err100 = {instancePath:instancePath+"/displays/" + key7.replace(/~/g, "~0").replace(/\//g, "~1")+"/layout/" + key11.replace(/~/g, "~0").replace(/\//g, "~1")+"/" + key13.replace(/~/g, "~0").replace(/\//g, "~1")+"/params",schemaPath:"#/properties/displays/additionalProperties/properties/layout/additionalProperties/additionalProperties/properties/params/type",keyword:"type",params:{type: "object"},message:"must be object"};
if(vErrors === null){
vErrors = [err100];
}
else {
vErrors.push(err100);
}
errors++;
}
}
if(data39.align !== undefined){
let data46 = data39.align;
if(!(((data46 === "center") || (data46 === "right")) || (data46 === "left"))){
const err101 = {instancePath:instancePath+"/displays/" + key7.replace(/~/g, "~0").replace(/\//g, "~1")+"/layout/" + key11.replace(/~/g, "~0").replace(/\//g, "~1")+"/" + key13.replace(/~/g, "~0").replace(/\//g, "~1")+"/align",schemaPath:"#/properties/displays/additionalProperties/properties/layout/additionalProperties/additionalProperties/properties/align/enum",keyword:"enum",params:{allowedValues: schema0.properties.displays.additionalProperties.properties.layout.additionalProperties.additionalProperties.properties.align.enum},message:"must be equal to one of the allowed values"};
if(vErrors === null){
vErrors = [err101];
}
else {
vErrors.push(err101);
}
errors++;
}
}
if(data39.font !== undefined){
let data47 = data39.font;
if(typeof data47 === "string"){
if(func2(data47) > 255){
const err102 = {instancePath:instancePath+"/displays/" + key7.replace(/~/g, "~0").replace(/\//g, "~1")+"/layout/" + key11.replace(/~/g, "~0").replace(/\//g, "~1")+"/" + key13.replace(/~/g, "~0").replace(/\//g, "~1")+"/font",schemaPath:"#/properties/displays/additionalProperties/properties/layout/additionalProperties/additionalProperties/properties/font/maxLength",keyword:"maxLength",params:{limit: 255},message:"must NOT have more than 255 characters"};
if(vErrors === null){
vErrors = [err102];
}
else {
vErrors.push(err102);
}
errors++;
}
}
else {
const err103 = {instancePath:instancePath+"/displays/" + key7.replace(/~/g, "~0").replace(/\//g, "~1")+"/layout/" + key11.replace(/~/g, "~0").replace(/\//g, "~1")+"/" + key13.replace(/~/g, "~0").replace(/\//g, "~1")+"/font",schemaPath:"#/properties/displays/additionalProperties/properties/layout/additionalProperties/additionalProperties/properties/font/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err103];
}
else {
vErrors.push(err103);
}
errors++;
}
}
if(data39.fontSize !== undefined){
const message14 = func1(data39.fontSize, [1,4000]);
if(message14 !== undefined){
const err104 = {instancePath:instancePath+"/displays/" + key7.replace(/~/g, "~0").replace(/\//g, "~1")+"/layout/" + key11.replace(/~/g, "~0").replace(/\//g, "~1")+"/" + key13.replace(/~/g, "~0").replace(/\//g, "~1")+"/fontSize",schemaPath:"#/properties/displays/additionalProperties/properties/layout/additionalProperties/additionalProperties/properties/fontSize/xInt",keyword:"xInt",params:{},message:message14};
if(vErrors === null){
vErrors = [err104];
}
else {
vErrors.push(err104);
}
errors++;
}
}
if(data39.fontColor !== undefined){
const message15 = func43(data39.fontColor, false);
if(message15 !== undefined){
const err105 = {instancePath:instancePath+"/displays/" + key7.replace(/~/g, "~0").replace(/\//g, "~1")+"/layout/" + key11.replace(/~/g, "~0").replace(/\//g, "~1")+"/" + key13.replace(/~/g, "~0").replace(/\//g, "~1")+"/fontColor",schemaPath:"#/properties/displays/additionalProperties/properties/layout/additionalProperties/additionalProperties/properties/fontColor/xColor",keyword:"xColor",params:{},message:message15};
if(vErrors === null){
vErrors = [err105];
}
else {
vErrors.push(err105);
}
errors++;
}
}
if(data39.backgroundColor !== undefined){
const message16 = func43(data39.backgroundColor, true);
if(message16 !== undefined){
const err106 = {instancePath:instancePath+"/displays/" + key7.replace(/~/g, "~0").replace(/\//g, "~1")+"/layout/" + key11.replace(/~/g, "~0").replace(/\//g, "~1")+"/" + key13.replace(/~/g, "~0").replace(/\//g, "~1")+"/backgroundColor",schemaPath:"#/properties/displays/additionalProperties/properties/layout/additionalProperties/additionalProperties/properties/backgroundColor/xColor",keyword:"xColor",params:{},message:message16};
if(vErrors === null){
vErrors = [err106];
}
else {
vErrors.push(err106);
}
errors++;
}
}
if(data39.textFromStart !== undefined){
const message17 = func5(data39.textFromStart, true);
if(message17 !== undefined){
const err107 = {instancePath:instancePath+"/displays/" + key7.replace(/~/g, "~0").replace(/\//g, "~1")+"/layout/" + key11.replace(/~/g, "~0").replace(/\//g, "~1")+"/" + key13.replace(/~/g, "~0").replace(/\//g, "~1")+"/textFromStart",schemaPath:"#/properties/displays/additionalProperties/properties/layout/additionalProperties/additionalProperties/properties/textFromStart/xBool",keyword:"xBool",params:{},message:message17};
if(vErrors === null){
vErrors = [err107];
}
else {
vErrors.push(err107);
}
errors++;
}
}
if(data39.textLiveUpdate !== undefined){
const message18 = func5(data39.textLiveUpdate, true);
if(message18 !== undefined){
const err108 = {instancePath:instancePath+"/displays/" + key7.replace(/~/g, "~0").replace(/\//g, "~1")+"/layout/" + key11.replace(/~/g, "~0").replace(/\//g, "~1")+"/" + key13.replace(/~/g, "~0").replace(/\//g, "~1")+"/textLiveUpdate",schemaPath:"#/properties/displays/additionalProperties/properties/layout/additionalProperties/additionalProperties/properties/textLiveUpdate/xBool",keyword:"xBool",params:{},message:message18};
if(vErrors === null){
vErrors = [err108];
}
else {
vErrors.push(err108);
}
errors++;
}
}
if(data39.headToTail !== undefined){
const message19 = func1(data39.headToTail, [0,1000]);
if(message19 !== undefined){
const err109 = {instancePath:instancePath+"/displays/" + key7.replace(/~/g, "~0").replace(/\//g, "~1")+"/layout/" + key11.replace(/~/g, "~0").replace(/\//g, "~1")+"/" + key13.replace(/~/g, "~0").replace(/\//g, "~1")+"/headToTail",schemaPath:"#/properties/displays/additionalProperties/properties/layout/additionalProperties/additionalProperties/properties/headToTail/xInt",keyword:"xInt",params:{},message:message19};
if(vErrors === null){
vErrors = [err109];
}
else {
vErrors.push(err109);
}
errors++;
}
}
if(data39.scrollSpeed !== undefined){
const message20 = func1(data39.scrollSpeed, [0,8]);
if(message20 !== undefined){
const err110 = {instancePath:instancePath+"/displays/" + key7.replace(/~/g, "~0").replace(/\//g, "~1")+"/layout/" + key11.replace(/~/g, "~0").replace(/\//g, "~1")+"/" + key13.replace(/~/g, "~0").replace(/\//g, "~1")+"/scrollSpeed",schemaPath:"#/properties/displays/additionalProperties/properties/layout/additionalProperties/additionalProperties/properties/scrollSpeed/xInt",keyword:"xInt",params:{},message:message20};
if(vErrors === null){
vErrors = [err110];
}
else {
vErrors.push(err110);
}
errors++;
}
}
if(data39.dispEffect !== undefined){
const message21 = func1(data39.dispEffect, [1,15]);
if(message21 !== undefined){
const err111 = {instancePath:instancePath+"/displays/" + key7.replace(/~/g, "~0").replace(/\//g, "~1")+"/layout/" + key11.replace(/~/g, "~0").replace(/\//g, "~1")+"/" + key13.replace(/~/g, "~0").replace(/\//g, "~1")+"/dispEffect",schemaPath:"#/properties/displays/additionalProperties/properties/layout/additionalProperties/additionalProperties/properties/dispEffect/xInt",keyword:"xInt",params:{},message:message21};
if(vErrors === null){
vErrors = [err111];
}
else {
vErrors.push(err111);
}
errors++;
}
}
if(data39.clearEffect !== undefined){
const message22 = func1(data39.clearEffect, [1,15]);
if(message22 !== undefined){
const err112 = {instancePath:instancePath+"/displays/" + key7.replace(/~/g, "~0").replace(/\//g, "~1")+"/layout/" + key11.replace(/~/g, "~0").replace(/\//g, "~1")+"/" + key13.replace(/~/g, "~0").replace(/\//g, "~1")+"/clearEffect",schemaPath:"#/properties/displays/additionalProperties/properties/layout/additionalProperties/additionalProperties/properties/clearEffect/xInt",keyword:"xInt",params:{},message:message22};
if(vErrors === null){
vErrors = [err112];
}
else {
vErrors.push(err112);
}
errors++;
}
}
if(data39.dateOffset !== undefined){
const message23 = func51(data39.dateOffset, [-14,14]);
if(message23 !== undefined){
const err113 = {instancePath:instancePath+"/displays/" + key7.replace(/~/g, "~0").replace(/\//g, "~1")+"/layout/" + key11.replace(/~/g, "~0").replace(/\//g, "~1")+"/" + key13.replace(/~/g, "~0").replace(/\//g, "~1")+"/dateOffset",schemaPath:"#/properties/displays/additionalProperties/properties/layout/additionalProperties/additionalProperties/properties/dateOffset/xNum",keyword:"xNum",params:{},message:message23};
if(vErrors === null){
vErrors = [err113];
}
else {
vErrors.push(err113);
}
errors++;
}
}
if(data39.dateFormat !== undefined){
let data58 = data39.dateFormat;
if(typeof data58 === "string"){
if(func2(data58) > 255){
const err114 = {instancePath:instancePath+"/displays/" + key7.replace(/~/g, "~0").replace(/\//g, "~1")+"/layout/" + key11.replace(/~/g, "~0").replace(/\//g, "~1")+"/" + key13.replace(/~/g, "~0").replace(/\//g, "~1")+"/dateFormat",schemaPath:"#/properties/displays/additionalProperties/properties/layout/additionalProperties/additionalProperties/properties/dateFormat/maxLength",keyword:"maxLength",params:{limit: 255},message:"must NOT have more than 255 characters"};
if(vErrors === null){
vErrors = [err114];
}
else {
vErrors.push(err114);
}
errors++;
}
}
else {
const err115 = {instancePath:instancePath+"/displays/" + key7.replace(/~/g, "~0").replace(/\//g, "~1")+"/layout/" + key11.replace(/~/g, "~0").replace(/\//g, "~1")+"/" + key13.replace(/~/g, "~0").replace(/\//g, "~1")+"/dateFormat",schemaPath:"#/properties/displays/additionalProperties/properties/layout/additionalProperties/additionalProperties/properties/dateFormat/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err115];
}
else {
vErrors.push(err115);
}
errors++;
}
}
if(data39.xy !== undefined){
let data59 = data39.xy;
if(typeof data59 === "string"){
if(!pattern4.test(data59)){
const err116 = {instancePath:instancePath+"/displays/" + key7.replace(/~/g, "~0").replace(/\//g, "~1")+"/layout/" + key11.replace(/~/g, "~0").replace(/\//g, "~1")+"/" + key13.replace(/~/g, "~0").replace(/\//g, "~1")+"/xy",schemaPath:"#/properties/displays/additionalProperties/properties/layout/additionalProperties/additionalProperties/properties/xy/pattern",keyword:"pattern",params:{pattern: "^\\s*\\d+\\s+\\d+\\s*$"},message:"must match pattern \""+"^\\s*\\d+\\s+\\d+\\s*$"+"\""};
if(vErrors === null){
vErrors = [err116];
}
else {
vErrors.push(err116);
}
errors++;
}
}
else {
const err117 = {instancePath:instancePath+"/displays/" + key7.replace(/~/g, "~0").replace(/\//g, "~1")+"/layout/" + key11.replace(/~/g, "~0").replace(/\//g, "~1")+"/" + key13.replace(/~/g, "~0").replace(/\//g, "~1")+"/xy",schemaPath:"#/properties/displays/additionalProperties/properties/layout/additionalProperties/additionalProperties/properties/xy/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err117];
}
else {
vErrors.push(err117);
}
errors++;
}
}
if(data39.antialias !== undefined){
let data60 = data39.antialias;
if(!((data60 === "default") || (data60 === "none"))){
const err118 = {instancePath:instancePath+"/displays/" + key7.replace(/~/g, "~0").replace(/\//g, "~1")+"/layout/" + key11.replace(/~/g, "~0").replace(/\//g, "~1")+"/" + key13.replace(/~/g, "~0").replace(/\//g, "~1")+"/antialias",schemaPath:"#/properties/displays/additionalProperties/properties/layout/additionalProperties/additionalProperties/properties/antialias/enum",keyword:"enum",params:{allowedValues: schema0.properties.displays.additionalProperties.properties.layout.additionalProperties.additionalProperties.properties.antialias.enum},message:"must be equal to one of the allowed values"};
if(vErrors === null){
vErrors = [err118];
}
else {
vErrors.push(err118);
}
errors++;
}
}
if(data39.wrap !== undefined){
const message24 = func5(data39.wrap, true);
if(message24 !== undefined){
const err119 = {instancePath:instancePath+"/displays/" + key7.replace(/~/g, "~0").replace(/\//g, "~1")+"/layout/" + key11.replace(/~/g, "~0").replace(/\//g, "~1")+"/" + key13.replace(/~/g, "~0").replace(/\//g, "~1")+"/wrap",schemaPath:"#/properties/displays/additionalProperties/properties/layout/additionalProperties/additionalProperties/properties/wrap/xBool",keyword:"xBool",params:{},message:message24};
if(vErrors === null){
vErrors = [err119];
}
else {
vErrors.push(err119);
}
errors++;
}
}
if(data39.lineSpacing !== undefined){
const message25 = func1(data39.lineSpacing, [0,1000]);
if(message25 !== undefined){
const err120 = {instancePath:instancePath+"/displays/" + key7.replace(/~/g, "~0").replace(/\//g, "~1")+"/layout/" + key11.replace(/~/g, "~0").replace(/\//g, "~1")+"/" + key13.replace(/~/g, "~0").replace(/\//g, "~1")+"/lineSpacing",schemaPath:"#/properties/displays/additionalProperties/properties/layout/additionalProperties/additionalProperties/properties/lineSpacing/xInt",keyword:"xInt",params:{},message:message25};
if(vErrors === null){
vErrors = [err120];
}
else {
vErrors.push(err120);
}
errors++;
}
}
if(data39.valign !== undefined){
let data63 = data39.valign;
if(!(((data63 === "top") || (data63 === "middle")) || (data63 === "bottom"))){
const err121 = {instancePath:instancePath+"/displays/" + key7.replace(/~/g, "~0").replace(/\//g, "~1")+"/layout/" + key11.replace(/~/g, "~0").replace(/\//g, "~1")+"/" + key13.replace(/~/g, "~0").replace(/\//g, "~1")+"/valign",schemaPath:"#/properties/displays/additionalProperties/properties/layout/additionalProperties/additionalProperties/properties/valign/enum",keyword:"enum",params:{allowedValues: schema0.properties.displays.additionalProperties.properties.layout.additionalProperties.additionalProperties.properties.valign.enum},message:"must be equal to one of the allowed values"};
if(vErrors === null){
vErrors = [err121];
}
else {
vErrors.push(err121);
}
errors++;
}
}
if(data39.overflow !== undefined){
let data64 = data39.overflow;
if(!(((data64 === "scroll") || (data64 === "pages")) || (data64 === "scroll-up"))){
const err122 = {instancePath:instancePath+"/displays/" + key7.replace(/~/g, "~0").replace(/\//g, "~1")+"/layout/" + key11.replace(/~/g, "~0").replace(/\//g, "~1")+"/" + key13.replace(/~/g, "~0").replace(/\//g, "~1")+"/overflow",schemaPath:"#/properties/displays/additionalProperties/properties/layout/additionalProperties/additionalProperties/properties/overflow/enum",keyword:"enum",params:{allowedValues: schema0.properties.displays.additionalProperties.properties.layout.additionalProperties.additionalProperties.properties.overflow.enum},message:"must be equal to one of the allowed values"};
if(vErrors === null){
vErrors = [err122];
}
else {
vErrors.push(err122);
}
errors++;
}
}
if(data39.pageSeconds !== undefined){
const message26 = func51(data39.pageSeconds, [0.1,86400]);
if(message26 !== undefined){
const err123 = {instancePath:instancePath+"/displays/" + key7.replace(/~/g, "~0").replace(/\//g, "~1")+"/layout/" + key11.replace(/~/g, "~0").replace(/\//g, "~1")+"/" + key13.replace(/~/g, "~0").replace(/\//g, "~1")+"/pageSeconds",schemaPath:"#/properties/displays/additionalProperties/properties/layout/additionalProperties/additionalProperties/properties/pageSeconds/xNum",keyword:"xNum",params:{},message:message26};
if(vErrors === null){
vErrors = [err123];
}
else {
vErrors.push(err123);
}
errors++;
}
}
if(data39.fit !== undefined){
let data66 = data39.fit;
if(!((data66 === "none") || (data66 === "shrink"))){
const err124 = {instancePath:instancePath+"/displays/" + key7.replace(/~/g, "~0").replace(/\//g, "~1")+"/layout/" + key11.replace(/~/g, "~0").replace(/\//g, "~1")+"/" + key13.replace(/~/g, "~0").replace(/\//g, "~1")+"/fit",schemaPath:"#/properties/displays/additionalProperties/properties/layout/additionalProperties/additionalProperties/properties/fit/enum",keyword:"enum",params:{allowedValues: schema0.properties.displays.additionalProperties.properties.layout.additionalProperties.additionalProperties.properties.fit.enum},message:"must be equal to one of the allowed values"};
if(vErrors === null){
vErrors = [err124];
}
else {
vErrors.push(err124);
}
errors++;
}
}
if(data39.minFontSize !== undefined){
const message27 = func1(data39.minFontSize, [1,4000]);
if(message27 !== undefined){
const err125 = {instancePath:instancePath+"/displays/" + key7.replace(/~/g, "~0").replace(/\//g, "~1")+"/layout/" + key11.replace(/~/g, "~0").replace(/\//g, "~1")+"/" + key13.replace(/~/g, "~0").replace(/\//g, "~1")+"/minFontSize",schemaPath:"#/properties/displays/additionalProperties/properties/layout/additionalProperties/additionalProperties/properties/minFontSize/xInt",keyword:"xInt",params:{},message:message27};
if(vErrors === null){
vErrors = [err125];
}
else {
vErrors.push(err125);
}
errors++;
}
}
if(data39.fonts !== undefined){
let data68 = data39.fonts;
if(Array.isArray(data68)){
if(data68.length > 16){
const err126 = {instancePath:instancePath+"/displays/" + key7.replace(/~/g, "~0").replace(/\//g, "~1")+"/layout/" + key11.replace(/~/g, "~0").replace(/\//g, "~1")+"/" + key13.replace(/~/g, "~0").replace(/\//g, "~1")+"/fonts",schemaPath:"#/properties/displays/additionalProperties/properties/layout/additionalProperties/additionalProperties/properties/fonts/maxItems",keyword:"maxItems",params:{limit: 16},message:"must NOT have more than 16 items"};
if(vErrors === null){
vErrors = [err126];
}
else {
vErrors.push(err126);
}
errors++;
}
const len2 = data68.length;
for(let i2=0; i2<len2; i2++){
let data69 = data68[i2];
if(typeof data69 === "string"){
if(func2(data69) > 255){
const err127 = {instancePath:instancePath+"/displays/" + key7.replace(/~/g, "~0").replace(/\//g, "~1")+"/layout/" + key11.replace(/~/g, "~0").replace(/\//g, "~1")+"/" + key13.replace(/~/g, "~0").replace(/\//g, "~1")+"/fonts/" + i2,schemaPath:"#/properties/displays/additionalProperties/properties/layout/additionalProperties/additionalProperties/properties/fonts/items/maxLength",keyword:"maxLength",params:{limit: 255},message:"must NOT have more than 255 characters"};
if(vErrors === null){
vErrors = [err127];
}
else {
vErrors.push(err127);
}
errors++;
}
}
else {
const err128 = {instancePath:instancePath+"/displays/" + key7.replace(/~/g, "~0").replace(/\//g, "~1")+"/layout/" + key11.replace(/~/g, "~0").replace(/\//g, "~1")+"/" + key13.replace(/~/g, "~0").replace(/\//g, "~1")+"/fonts/" + i2,schemaPath:"#/properties/displays/additionalProperties/properties/layout/additionalProperties/additionalProperties/properties/fonts/items/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err128];
}
else {
vErrors.push(err128);
}
errors++;
}
}
}
else {
const err129 = {instancePath:instancePath+"/displays/" + key7.replace(/~/g, "~0").replace(/\//g, "~1")+"/layout/" + key11.replace(/~/g, "~0").replace(/\//g, "~1")+"/" + key13.replace(/~/g, "~0").replace(/\//g, "~1")+"/fonts",schemaPath:"#/properties/displays/additionalProperties/properties/layout/additionalProperties/additionalProperties/properties/fonts/type",keyword:"type",params:{type: "array"},message:"must be array"};
if(vErrors === null){
vErrors = [err129];
}
else {
vErrors.push(err129);
}
errors++;
}
}
if(data39.graphics !== undefined){
let data70 = data39.graphics;
if(Array.isArray(data70)){
if(data70.length > 64){
const err130 = {instancePath:instancePath+"/displays/" + key7.replace(/~/g, "~0").replace(/\//g, "~1")+"/layout/" + key11.replace(/~/g, "~0").replace(/\//g, "~1")+"/" + key13.replace(/~/g, "~0").replace(/\//g, "~1")+"/graphics",schemaPath:"#/properties/displays/additionalProperties/properties/layout/additionalProperties/additionalProperties/properties/graphics/maxItems",keyword:"maxItems",params:{limit: 64},message:"must NOT have more than 64 items"};
if(vErrors === null){
vErrors = [err130];
}
else {
vErrors.push(err130);
}
errors++;
}
const len3 = data70.length;
for(let i3=0; i3<len3; i3++){
let data71 = data70[i3];
if(typeof data71 === "string"){
if(func2(data71) > 255){
const err131 = {instancePath:instancePath+"/displays/" + key7.replace(/~/g, "~0").replace(/\//g, "~1")+"/layout/" + key11.replace(/~/g, "~0").replace(/\//g, "~1")+"/" + key13.replace(/~/g, "~0").replace(/\//g, "~1")+"/graphics/" + i3,schemaPath:"#/properties/displays/additionalProperties/properties/layout/additionalProperties/additionalProperties/properties/graphics/items/maxLength",keyword:"maxLength",params:{limit: 255},message:"must NOT have more than 255 characters"};
if(vErrors === null){
vErrors = [err131];
}
else {
vErrors.push(err131);
}
errors++;
}
}
else {
const err132 = {instancePath:instancePath+"/displays/" + key7.replace(/~/g, "~0").replace(/\//g, "~1")+"/layout/" + key11.replace(/~/g, "~0").replace(/\//g, "~1")+"/" + key13.replace(/~/g, "~0").replace(/\//g, "~1")+"/graphics/" + i3,schemaPath:"#/properties/displays/additionalProperties/properties/layout/additionalProperties/additionalProperties/properties/graphics/items/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err132];
}
else {
vErrors.push(err132);
}
errors++;
}
}
}
else {
const err133 = {instancePath:instancePath+"/displays/" + key7.replace(/~/g, "~0").replace(/\//g, "~1")+"/layout/" + key11.replace(/~/g, "~0").replace(/\//g, "~1")+"/" + key13.replace(/~/g, "~0").replace(/\//g, "~1")+"/graphics",schemaPath:"#/properties/displays/additionalProperties/properties/layout/additionalProperties/additionalProperties/properties/graphics/type",keyword:"type",params:{type: "array"},message:"must be array"};
if(vErrors === null){
vErrors = [err133];
}
else {
vErrors.push(err133);
}
errors++;
}
}
if(data39.markup !== undefined){
let data72 = data39.markup;
if(!((data72 === "none") || (data72 === "multi"))){
const err134 = {instancePath:instancePath+"/displays/" + key7.replace(/~/g, "~0").replace(/\//g, "~1")+"/layout/" + key11.replace(/~/g, "~0").replace(/\//g, "~1")+"/" + key13.replace(/~/g, "~0").replace(/\//g, "~1")+"/markup",schemaPath:"#/properties/displays/additionalProperties/properties/layout/additionalProperties/additionalProperties/properties/markup/enum",keyword:"enum",params:{allowedValues: schema0.properties.displays.additionalProperties.properties.layout.additionalProperties.additionalProperties.properties.markup.enum},message:"must be equal to one of the allowed values"};
if(vErrors === null){
vErrors = [err134];
}
else {
vErrors.push(err134);
}
errors++;
}
}
if(data39.scrollDirection !== undefined){
let data73 = data39.scrollDirection;
if(!(((data73 === "left") || (data73 === "right")) || (data73 === "up"))){
const err135 = {instancePath:instancePath+"/displays/" + key7.replace(/~/g, "~0").replace(/\//g, "~1")+"/layout/" + key11.replace(/~/g, "~0").replace(/\//g, "~1")+"/" + key13.replace(/~/g, "~0").replace(/\//g, "~1")+"/scrollDirection",schemaPath:"#/properties/displays/additionalProperties/properties/layout/additionalProperties/additionalProperties/properties/scrollDirection/enum",keyword:"enum",params:{allowedValues: schema0.properties.displays.additionalProperties.properties.layout.additionalProperties.additionalProperties.properties.scrollDirection.enum},message:"must be equal to one of the allowed values"};
if(vErrors === null){
vErrors = [err135];
}
else {
vErrors.push(err135);
}
errors++;
}
}
}
else {
const err136 = {instancePath:instancePath+"/displays/" + key7.replace(/~/g, "~0").replace(/\//g, "~1")+"/layout/" + key11.replace(/~/g, "~0").replace(/\//g, "~1")+"/" + key13.replace(/~/g, "~0").replace(/\//g, "~1"),schemaPath:"#/properties/displays/additionalProperties/properties/layout/additionalProperties/additionalProperties/type",keyword:"type",params:{type: "object"},message:"must be object"};
if(vErrors === null){
vErrors = [err136];
}
else {
vErrors.push(err136);
}
errors++;
}
}
}
else {
const err137 = {instancePath:instancePath+"/displays/" + key7.replace(/~/g, "~0").replace(/\//g, "~1")+"/layout/" + key11.replace(/~/g, "~0").replace(/\//g, "~1"),schemaPath:"#/properties/displays/additionalProperties/properties/layout/additionalProperties/type",keyword:"type",params:{type: "object"},message:"must be object"};
if(vErrors === null){
vErrors = [err137];
}
else {
vErrors.push(err137);
}
errors++;
}
}
}
else {
const err138 = {instancePath:instancePath+"/displays/" + key7.replace(/~/g, "~0").replace(/\//g, "~1")+"/layout",schemaPath:"#/properties/displays/additionalProperties/properties/layout/type",keyword:"type",params:{type: "object"},message:"must be object"};
if(vErrors === null){
vErrors = [err138];
}
else {
vErrors.push(err138);
}
errors++;
}
}
if(data20.output !== undefined){
let data74 = data20.output;
if(data74 && typeof data74 == "object" && !Array.isArray(data74)){
if(data74.driver === undefined){
const err139 = {instancePath:instancePath+"/displays/" + key7.replace(/~/g, "~0").replace(/\//g, "~1")+"/output",schemaPath:"#/properties/displays/additionalProperties/properties/output/required",keyword:"required",params:{missingProperty: "driver"},message:"must have required property '"+"driver"+"'"};
if(vErrors === null){
vErrors = [err139];
}
else {
vErrors.push(err139);
}
errors++;
}
if(data74.driver !== undefined){
let data75 = data74.driver;
if(!((((data75 === "virtual") || (data75 === "fbdev")) || (data75 === "colorlight")) || (data75 === "ddp"))){
const err140 = {instancePath:instancePath+"/displays/" + key7.replace(/~/g, "~0").replace(/\//g, "~1")+"/output/driver",schemaPath:"#/properties/displays/additionalProperties/properties/output/properties/driver/enum",keyword:"enum",params:{allowedValues: schema0.properties.displays.additionalProperties.properties.output.properties.driver.enum},message:"must be equal to one of the allowed values"};
if(vErrors === null){
vErrors = [err140];
}
else {
vErrors.push(err140);
}
errors++;
}
}
const tag0 = data74.driver;
if(typeof tag0 == "string"){
if(tag0 === "virtual"){
if(data74 && typeof data74 == "object" && !Array.isArray(data74)){
for(const key17 in data74){
if(!(key17 === "driver")){
const err141 = {instancePath:instancePath+"/displays/" + key7.replace(/~/g, "~0").replace(/\//g, "~1")+"/output",schemaPath:"#/properties/displays/additionalProperties/properties/output/oneOf/0/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key17},message:"must NOT have additional properties"};
if(vErrors === null){
vErrors = [err141];
}
else {
vErrors.push(err141);
}
errors++;
}
}
if(data74.driver !== undefined){
if("virtual" !== data74.driver){
const err142 = {instancePath:instancePath+"/displays/" + key7.replace(/~/g, "~0").replace(/\//g, "~1")+"/output/driver",schemaPath:"#/properties/displays/additionalProperties/properties/output/oneOf/0/properties/driver/const",keyword:"const",params:{allowedValue: "virtual"},message:"must be equal to constant"};
if(vErrors === null){
vErrors = [err142];
}
else {
vErrors.push(err142);
}
errors++;
}
}
}
}
else if(tag0 === "fbdev"){
if(data74 && typeof data74 == "object" && !Array.isArray(data74)){
if(data74.device === undefined){
const err143 = {instancePath:instancePath+"/displays/" + key7.replace(/~/g, "~0").replace(/\//g, "~1")+"/output",schemaPath:"#/properties/displays/additionalProperties/properties/output/oneOf/1/required",keyword:"required",params:{missingProperty: "device"},message:"must have required property '"+"device"+"'"};
if(vErrors === null){
vErrors = [err143];
}
else {
vErrors.push(err143);
}
errors++;
}
for(const key18 in data74){
if(!((key18 === "driver") || (key18 === "device"))){
const err144 = {instancePath:instancePath+"/displays/" + key7.replace(/~/g, "~0").replace(/\//g, "~1")+"/output",schemaPath:"#/properties/displays/additionalProperties/properties/output/oneOf/1/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key18},message:"must NOT have additional properties"};
if(vErrors === null){
vErrors = [err144];
}
else {
vErrors.push(err144);
}
errors++;
}
}
if(data74.driver !== undefined){
if("fbdev" !== data74.driver){
const err145 = {instancePath:instancePath+"/displays/" + key7.replace(/~/g, "~0").replace(/\//g, "~1")+"/output/driver",schemaPath:"#/properties/displays/additionalProperties/properties/output/oneOf/1/properties/driver/const",keyword:"const",params:{allowedValue: "fbdev"},message:"must be equal to constant"};
if(vErrors === null){
vErrors = [err145];
}
else {
vErrors.push(err145);
}
errors++;
}
}
if(data74.device !== undefined){
let data78 = data74.device;
if(typeof data78 === "string"){
if(!pattern5.test(data78)){
const err146 = {instancePath:instancePath+"/displays/" + key7.replace(/~/g, "~0").replace(/\//g, "~1")+"/output/device",schemaPath:"#/properties/displays/additionalProperties/properties/output/oneOf/1/properties/device/pattern",keyword:"pattern",params:{pattern: "^/dev/"},message:"must match pattern \""+"^/dev/"+"\""};
if(vErrors === null){
vErrors = [err146];
}
else {
vErrors.push(err146);
}
errors++;
}
}
else {
const err147 = {instancePath:instancePath+"/displays/" + key7.replace(/~/g, "~0").replace(/\//g, "~1")+"/output/device",schemaPath:"#/properties/displays/additionalProperties/properties/output/oneOf/1/properties/device/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err147];
}
else {
vErrors.push(err147);
}
errors++;
}
}
}
}
else if(tag0 === "colorlight"){
if(data74 && typeof data74 == "object" && !Array.isArray(data74)){
if(data74.interface === undefined){
const err148 = {instancePath:instancePath+"/displays/" + key7.replace(/~/g, "~0").replace(/\//g, "~1")+"/output",schemaPath:"#/properties/displays/additionalProperties/properties/output/oneOf/2/required",keyword:"required",params:{missingProperty: "interface"},message:"must have required property '"+"interface"+"'"};
if(vErrors === null){
vErrors = [err148];
}
else {
vErrors.push(err148);
}
errors++;
}
for(const key19 in data74){
if(!((key19 === "driver") || (key19 === "interface"))){
const err149 = {instancePath:instancePath+"/displays/" + key7.replace(/~/g, "~0").replace(/\//g, "~1")+"/output",schemaPath:"#/properties/displays/additionalProperties/properties/output/oneOf/2/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key19},message:"must NOT have additional properties"};
if(vErrors === null){
vErrors = [err149];
}
else {
vErrors.push(err149);
}
errors++;
}
}
if(data74.driver !== undefined){
if("colorlight" !== data74.driver){
const err150 = {instancePath:instancePath+"/displays/" + key7.replace(/~/g, "~0").replace(/\//g, "~1")+"/output/driver",schemaPath:"#/properties/displays/additionalProperties/properties/output/oneOf/2/properties/driver/const",keyword:"const",params:{allowedValue: "colorlight"},message:"must be equal to constant"};
if(vErrors === null){
vErrors = [err150];
}
else {
vErrors.push(err150);
}
errors++;
}
}
if(data74.interface !== undefined){
let data80 = data74.interface;
if(typeof data80 === "string"){
if(!pattern6.test(data80)){
const err151 = {instancePath:instancePath+"/displays/" + key7.replace(/~/g, "~0").replace(/\//g, "~1")+"/output/interface",schemaPath:"#/properties/displays/additionalProperties/properties/output/oneOf/2/properties/interface/pattern",keyword:"pattern",params:{pattern: "^[A-Za-z0-9_.:-]{1,15}$"},message:"must match pattern \""+"^[A-Za-z0-9_.:-]{1,15}$"+"\""};
if(vErrors === null){
vErrors = [err151];
}
else {
vErrors.push(err151);
}
errors++;
}
}
else {
const err152 = {instancePath:instancePath+"/displays/" + key7.replace(/~/g, "~0").replace(/\//g, "~1")+"/output/interface",schemaPath:"#/properties/displays/additionalProperties/properties/output/oneOf/2/properties/interface/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err152];
}
else {
vErrors.push(err152);
}
errors++;
}
}
}
}
else if(tag0 === "ddp"){
if(data74 && typeof data74 == "object" && !Array.isArray(data74)){
for(const key20 in data74){
if(!(key20 === "driver")){
const err153 = {instancePath:instancePath+"/displays/" + key7.replace(/~/g, "~0").replace(/\//g, "~1")+"/output",schemaPath:"#/properties/displays/additionalProperties/properties/output/oneOf/3/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key20},message:"must NOT have additional properties"};
if(vErrors === null){
vErrors = [err153];
}
else {
vErrors.push(err153);
}
errors++;
}
}
if(data74.driver !== undefined){
if("ddp" !== data74.driver){
const err154 = {instancePath:instancePath+"/displays/" + key7.replace(/~/g, "~0").replace(/\//g, "~1")+"/output/driver",schemaPath:"#/properties/displays/additionalProperties/properties/output/oneOf/3/properties/driver/const",keyword:"const",params:{allowedValue: "ddp"},message:"must be equal to constant"};
if(vErrors === null){
vErrors = [err154];
}
else {
vErrors.push(err154);
}
errors++;
}
}
}
}
else {
const err155 = {instancePath:instancePath+"/displays/" + key7.replace(/~/g, "~0").replace(/\//g, "~1")+"/output",schemaPath:"#/properties/displays/additionalProperties/properties/output/discriminator",keyword:"discriminator",params:{error: "mapping", tag: "driver", tagValue: tag0},message:"value of tag \"driver\" must be in oneOf"};
if(vErrors === null){
vErrors = [err155];
}
else {
vErrors.push(err155);
}
errors++;
}
}
else {
const err156 = {instancePath:instancePath+"/displays/" + key7.replace(/~/g, "~0").replace(/\//g, "~1")+"/output",schemaPath:"#/properties/displays/additionalProperties/properties/output/discriminator",keyword:"discriminator",params:{error: "tag", tag: "driver", tagValue: tag0},message:"tag \"driver\" must be string"};
if(vErrors === null){
vErrors = [err156];
}
else {
vErrors.push(err156);
}
errors++;
}
}
else {
const err157 = {instancePath:instancePath+"/displays/" + key7.replace(/~/g, "~0").replace(/\//g, "~1")+"/output",schemaPath:"#/properties/displays/additionalProperties/properties/output/type",keyword:"type",params:{type: "object"},message:"must be object"};
if(vErrors === null){
vErrors = [err157];
}
else {
vErrors.push(err157);
}
errors++;
}
}
if(data20.sensor !== undefined){
let data82 = data20.sensor;
if(data82 && typeof data82 == "object" && !Array.isArray(data82)){
if(data82.protocol === undefined){
const err158 = {instancePath:instancePath+"/displays/" + key7.replace(/~/g, "~0").replace(/\//g, "~1")+"/sensor",schemaPath:"#/properties/displays/additionalProperties/properties/sensor/required",keyword:"required",params:{missingProperty: "protocol"},message:"must have required property '"+"protocol"+"'"};
if(vErrors === null){
vErrors = [err158];
}
else {
vErrors.push(err158);
}
errors++;
}
for(const key21 in data82){
if(!(func0.call(schema0.properties.displays.additionalProperties.properties.sensor.properties, key21))){
const err159 = {instancePath:instancePath+"/displays/" + key7.replace(/~/g, "~0").replace(/\//g, "~1")+"/sensor",schemaPath:"#/properties/displays/additionalProperties/properties/sensor/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key21},message:"must NOT have additional properties"};
if(vErrors === null){
vErrors = [err159];
}
else {
vErrors.push(err159);
}
errors++;
}
}
if(data82.path !== undefined){
let data83 = data82.path;
if(typeof data83 === "string"){
if(!pattern5.test(data83)){
const err160 = {instancePath:instancePath+"/displays/" + key7.replace(/~/g, "~0").replace(/\//g, "~1")+"/sensor/path",schemaPath:"#/properties/displays/additionalProperties/properties/sensor/properties/path/pattern",keyword:"pattern",params:{pattern: "^/dev/"},message:"must match pattern \""+"^/dev/"+"\""};
if(vErrors === null){
vErrors = [err160];
}
else {
vErrors.push(err160);
}
errors++;
}
}
else {
const err161 = {instancePath:instancePath+"/displays/" + key7.replace(/~/g, "~0").replace(/\//g, "~1")+"/sensor/path",schemaPath:"#/properties/displays/additionalProperties/properties/sensor/properties/path/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err161];
}
else {
vErrors.push(err161);
}
errors++;
}
}
if(data82.baudRate !== undefined){
const message28 = func1(data82.baudRate, [300,4000000]);
if(message28 !== undefined){
const err162 = {instancePath:instancePath+"/displays/" + key7.replace(/~/g, "~0").replace(/\//g, "~1")+"/sensor/baudRate",schemaPath:"#/properties/displays/additionalProperties/properties/sensor/properties/baudRate/xInt",keyword:"xInt",params:{},message:message28};
if(vErrors === null){
vErrors = [err162];
}
else {
vErrors.push(err162);
}
errors++;
}
}
if(data82.protocol !== undefined){
let data85 = data82.protocol;
if(!(((data85 === "ascii") || (data85 === "modbus-rtu")) || (data85 === "modbus-tcp"))){
const err163 = {instancePath:instancePath+"/displays/" + key7.replace(/~/g, "~0").replace(/\//g, "~1")+"/sensor/protocol",schemaPath:"#/properties/displays/additionalProperties/properties/sensor/properties/protocol/enum",keyword:"enum",params:{allowedValues: schema0.properties.displays.additionalProperties.properties.sensor.properties.protocol.enum},message:"must be equal to one of the allowed values"};
if(vErrors === null){
vErrors = [err163];
}
else {
vErrors.push(err163);
}
errors++;
}
}
if(data82.unitId !== undefined){
const message29 = func1(data82.unitId, [0,255]);
if(message29 !== undefined){
const err164 = {instancePath:instancePath+"/displays/" + key7.replace(/~/g, "~0").replace(/\//g, "~1")+"/sensor/unitId",schemaPath:"#/properties/displays/additionalProperties/properties/sensor/properties/unitId/xInt",keyword:"xInt",params:{},message:message29};
if(vErrors === null){
vErrors = [err164];
}
else {
vErrors.push(err164);
}
errors++;
}
}
if(data82.register !== undefined){
const message30 = func1(data82.register, [0,65535]);
if(message30 !== undefined){
const err165 = {instancePath:instancePath+"/displays/" + key7.replace(/~/g, "~0").replace(/\//g, "~1")+"/sensor/register",schemaPath:"#/properties/displays/additionalProperties/properties/sensor/properties/register/xInt",keyword:"xInt",params:{},message:message30};
if(vErrors === null){
vErrors = [err165];
}
else {
vErrors.push(err165);
}
errors++;
}
}
if(data82.pollMs !== undefined){
const message31 = func1(data82.pollMs, [100,3600000]);
if(message31 !== undefined){
const err166 = {instancePath:instancePath+"/displays/" + key7.replace(/~/g, "~0").replace(/\//g, "~1")+"/sensor/pollMs",schemaPath:"#/properties/displays/additionalProperties/properties/sensor/properties/pollMs/xInt",keyword:"xInt",params:{},message:message31};
if(vErrors === null){
vErrors = [err166];
}
else {
vErrors.push(err166);
}
errors++;
}
}
if(data82.host !== undefined){
let data89 = data82.host;
if(typeof data89 === "string"){
if(func2(data89) > 255){
const err167 = {instancePath:instancePath+"/displays/" + key7.replace(/~/g, "~0").replace(/\//g, "~1")+"/sensor/host",schemaPath:"#/properties/displays/additionalProperties/properties/sensor/properties/host/maxLength",keyword:"maxLength",params:{limit: 255},message:"must NOT have more than 255 characters"};
if(vErrors === null){
vErrors = [err167];
}
else {
vErrors.push(err167);
}
errors++;
}
if(func2(data89) < 1){
const err168 = {instancePath:instancePath+"/displays/" + key7.replace(/~/g, "~0").replace(/\//g, "~1")+"/sensor/host",schemaPath:"#/properties/displays/additionalProperties/properties/sensor/properties/host/minLength",keyword:"minLength",params:{limit: 1},message:"must NOT have fewer than 1 characters"};
if(vErrors === null){
vErrors = [err168];
}
else {
vErrors.push(err168);
}
errors++;
}
}
else {
const err169 = {instancePath:instancePath+"/displays/" + key7.replace(/~/g, "~0").replace(/\//g, "~1")+"/sensor/host",schemaPath:"#/properties/displays/additionalProperties/properties/sensor/properties/host/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err169];
}
else {
vErrors.push(err169);
}
errors++;
}
}
if(data82.port !== undefined){
const message32 = func1(data82.port, [1,65535]);
if(message32 !== undefined){
const err170 = {instancePath:instancePath+"/displays/" + key7.replace(/~/g, "~0").replace(/\//g, "~1")+"/sensor/port",schemaPath:"#/properties/displays/additionalProperties/properties/sensor/properties/port/xInt",keyword:"xInt",params:{},message:message32};
if(vErrors === null){
vErrors = [err170];
}
else {
vErrors.push(err170);
}
errors++;
}
}
if(data82.curve !== undefined){
let data91 = data82.curve;
if(Array.isArray(data91)){
if(data91.length < 2){
const err171 = {instancePath:instancePath+"/displays/" + key7.replace(/~/g, "~0").replace(/\//g, "~1")+"/sensor/curve",schemaPath:"#/properties/displays/additionalProperties/properties/sensor/properties/curve/minItems",keyword:"minItems",params:{limit: 2},message:"must NOT have fewer than 2 items"};
if(vErrors === null){
vErrors = [err171];
}
else {
vErrors.push(err171);
}
errors++;
}
const len4 = data91.length;
for(let i4=0; i4<len4; i4++){
let data92 = data91[i4];
if(Array.isArray(data92)){
if(data92.length > 2){
const err172 = {instancePath:instancePath+"/displays/" + key7.replace(/~/g, "~0").replace(/\//g, "~1")+"/sensor/curve/" + i4,schemaPath:"#/properties/displays/additionalProperties/properties/sensor/properties/curve/items/maxItems",keyword:"maxItems",params:{limit: 2},message:"must NOT have more than 2 items"};
if(vErrors === null){
vErrors = [err172];
}
else {
vErrors.push(err172);
}
errors++;
}
if(data92.length < 2){
const err173 = {instancePath:instancePath+"/displays/" + key7.replace(/~/g, "~0").replace(/\//g, "~1")+"/sensor/curve/" + i4,schemaPath:"#/properties/displays/additionalProperties/properties/sensor/properties/curve/items/minItems",keyword:"minItems",params:{limit: 2},message:"must NOT have fewer than 2 items"};
if(vErrors === null){
vErrors = [err173];
}
else {
vErrors.push(err173);
}
errors++;
}
const len5 = data92.length;
for(let i5=0; i5<len5; i5++){
const message33 = func51(data92[i5], [0,1000000]);
if(message33 !== undefined){
const err174 = {instancePath:instancePath+"/displays/" + key7.replace(/~/g, "~0").replace(/\//g, "~1")+"/sensor/curve/" + i4+"/" + i5,schemaPath:"#/properties/displays/additionalProperties/properties/sensor/properties/curve/items/items/xNum",keyword:"xNum",params:{},message:message33};
if(vErrors === null){
vErrors = [err174];
}
else {
vErrors.push(err174);
}
errors++;
}
}
}
else {
const err175 = {instancePath:instancePath+"/displays/" + key7.replace(/~/g, "~0").replace(/\//g, "~1")+"/sensor/curve/" + i4,schemaPath:"#/properties/displays/additionalProperties/properties/sensor/properties/curve/items/type",keyword:"type",params:{type: "array"},message:"must be array"};
if(vErrors === null){
vErrors = [err175];
}
else {
vErrors.push(err175);
}
errors++;
}
}
}
else {
const err176 = {instancePath:instancePath+"/displays/" + key7.replace(/~/g, "~0").replace(/\//g, "~1")+"/sensor/curve",schemaPath:"#/properties/displays/additionalProperties/properties/sensor/properties/curve/type",keyword:"type",params:{type: "array"},message:"must be array"};
if(vErrors === null){
vErrors = [err176];
}
else {
vErrors.push(err176);
}
errors++;
}
}
}
else {
const err177 = {instancePath:instancePath+"/displays/" + key7.replace(/~/g, "~0").replace(/\//g, "~1")+"/sensor",schemaPath:"#/properties/displays/additionalProperties/properties/sensor/type",keyword:"type",params:{type: "object"},message:"must be object"};
if(vErrors === null){
vErrors = [err177];
}
else {
vErrors.push(err177);
}
errors++;
}
}
}
else {
const err178 = {instancePath:instancePath+"/displays/" + key7.replace(/~/g, "~0").replace(/\//g, "~1"),schemaPath:"#/properties/displays/additionalProperties/type",keyword:"type",params:{type: "object"},message:"must be object"};
if(vErrors === null){
vErrors = [err178];
}
else {
vErrors.push(err178);
}
errors++;
}
}
}
else {
const err179 = {instancePath:instancePath+"/displays",schemaPath:"#/properties/displays/type",keyword:"type",params:{type: "object"},message:"must be object"};
if(vErrors === null){
vErrors = [err179];
}
else {
vErrors.push(err179);
}
errors++;
}
}
if(data.latitude !== undefined){
const message34 = func51(data.latitude, [-90,90]);
if(message34 !== undefined){
const err180 = {instancePath:instancePath+"/latitude",schemaPath:"#/properties/latitude/xNum",keyword:"xNum",params:{},message:message34};
if(vErrors === null){
vErrors = [err180];
}
else {
vErrors.push(err180);
}
errors++;
}
}
if(data.longitude !== undefined){
const message35 = func51(data.longitude, [-180,180]);
if(message35 !== undefined){
const err181 = {instancePath:instancePath+"/longitude",schemaPath:"#/properties/longitude/xNum",keyword:"xNum",params:{},message:message35};
if(vErrors === null){
vErrors = [err181];
}
else {
vErrors.push(err181);
}
errors++;
}
}
if(data.timezone !== undefined){
let data96 = data.timezone;
if(typeof data96 === "string"){
if(func2(data96) < 1){
const err182 = {instancePath:instancePath+"/timezone",schemaPath:"#/properties/timezone/minLength",keyword:"minLength",params:{limit: 1},message:"must NOT have fewer than 1 characters"};
if(vErrors === null){
vErrors = [err182];
}
else {
vErrors.push(err182);
}
errors++;
}
}
else {
const err183 = {instancePath:instancePath+"/timezone",schemaPath:"#/properties/timezone/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err183];
}
else {
vErrors.push(err183);
}
errors++;
}
}
if(data.logRetentionDays !== undefined){
const message36 = func1(data.logRetentionDays, [1,3650]);
if(message36 !== undefined){
const err184 = {instancePath:instancePath+"/logRetentionDays",schemaPath:"#/properties/logRetentionDays/xInt",keyword:"xInt",params:{},message:message36};
if(vErrors === null){
vErrors = [err184];
}
else {
vErrors.push(err184);
}
errors++;
}
}
if(data.unknownAreaKeys !== undefined){
let data98 = data.unknownAreaKeys;
if(!((data98 === "reject") || (data98 === "ignore"))){
const err185 = {instancePath:instancePath+"/unknownAreaKeys",schemaPath:"#/properties/unknownAreaKeys/enum",keyword:"enum",params:{allowedValues: schema0.properties.unknownAreaKeys.enum},message:"must be equal to one of the allowed values"};
if(vErrors === null){
vErrors = [err185];
}
else {
vErrors.push(err185);
}
errors++;
}
}
if(data.https !== undefined){
let data99 = data.https;
if(data99 && typeof data99 == "object" && !Array.isArray(data99)){
if(data99.cert === undefined){
const err186 = {instancePath:instancePath+"/https",schemaPath:"#/properties/https/required",keyword:"required",params:{missingProperty: "cert"},message:"must have required property '"+"cert"+"'"};
if(vErrors === null){
vErrors = [err186];
}
else {
vErrors.push(err186);
}
errors++;
}
if(data99.key === undefined){
const err187 = {instancePath:instancePath+"/https",schemaPath:"#/properties/https/required",keyword:"required",params:{missingProperty: "key"},message:"must have required property '"+"key"+"'"};
if(vErrors === null){
vErrors = [err187];
}
else {
vErrors.push(err187);
}
errors++;
}
for(const key22 in data99){
if(!(((key22 === "cert") || (key22 === "key")) || (key22 === "port"))){
const err188 = {instancePath:instancePath+"/https",schemaPath:"#/properties/https/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key22},message:"must NOT have additional properties"};
if(vErrors === null){
vErrors = [err188];
}
else {
vErrors.push(err188);
}
errors++;
}
}
if(data99.cert !== undefined){
let data100 = data99.cert;
if(typeof data100 === "string"){
if(func2(data100) > 255){
const err189 = {instancePath:instancePath+"/https/cert",schemaPath:"#/properties/https/properties/cert/maxLength",keyword:"maxLength",params:{limit: 255},message:"must NOT have more than 255 characters"};
if(vErrors === null){
vErrors = [err189];
}
else {
vErrors.push(err189);
}
errors++;
}
}
else {
const err190 = {instancePath:instancePath+"/https/cert",schemaPath:"#/properties/https/properties/cert/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err190];
}
else {
vErrors.push(err190);
}
errors++;
}
}
if(data99.key !== undefined){
let data101 = data99.key;
if(typeof data101 === "string"){
if(func2(data101) > 255){
const err191 = {instancePath:instancePath+"/https/key",schemaPath:"#/properties/https/properties/key/maxLength",keyword:"maxLength",params:{limit: 255},message:"must NOT have more than 255 characters"};
if(vErrors === null){
vErrors = [err191];
}
else {
vErrors.push(err191);
}
errors++;
}
}
else {
const err192 = {instancePath:instancePath+"/https/key",schemaPath:"#/properties/https/properties/key/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err192];
}
else {
vErrors.push(err192);
}
errors++;
}
}
if(data99.port !== undefined){
const message37 = func1(data99.port, [1025,65535]);
if(message37 !== undefined){
const err193 = {instancePath:instancePath+"/https/port",schemaPath:"#/properties/https/properties/port/xInt",keyword:"xInt",params:{},message:message37};
if(vErrors === null){
vErrors = [err193];
}
else {
vErrors.push(err193);
}
errors++;
}
}
}
else {
const err194 = {instancePath:instancePath+"/https",schemaPath:"#/properties/https/type",keyword:"type",params:{type: "object"},message:"must be object"};
if(vErrors === null){
vErrors = [err194];
}
else {
vErrors.push(err194);
}
errors++;
}
}
if(data.security !== undefined){
let data103 = data.security;
if(data103 && typeof data103 == "object" && !Array.isArray(data103)){
for(const key23 in data103){
if(!((key23 === "apiKey") || (key23 === "adminKey"))){
const err195 = {instancePath:instancePath+"/security",schemaPath:"#/properties/security/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key23},message:"must NOT have additional properties"};
if(vErrors === null){
vErrors = [err195];
}
else {
vErrors.push(err195);
}
errors++;
}
}
if(data103.apiKey !== undefined){
let data104 = data103.apiKey;
if(typeof data104 === "string"){
if(func2(data104) < 8){
const err196 = {instancePath:instancePath+"/security/apiKey",schemaPath:"#/properties/security/properties/apiKey/minLength",keyword:"minLength",params:{limit: 8},message:"must NOT have fewer than 8 characters"};
if(vErrors === null){
vErrors = [err196];
}
else {
vErrors.push(err196);
}
errors++;
}
}
else {
const err197 = {instancePath:instancePath+"/security/apiKey",schemaPath:"#/properties/security/properties/apiKey/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err197];
}
else {
vErrors.push(err197);
}
errors++;
}
}
if(data103.adminKey !== undefined){
let data105 = data103.adminKey;
if(typeof data105 === "string"){
if(func2(data105) < 8){
const err198 = {instancePath:instancePath+"/security/adminKey",schemaPath:"#/properties/security/properties/adminKey/minLength",keyword:"minLength",params:{limit: 8},message:"must NOT have fewer than 8 characters"};
if(vErrors === null){
vErrors = [err198];
}
else {
vErrors.push(err198);
}
errors++;
}
}
else {
const err199 = {instancePath:instancePath+"/security/adminKey",schemaPath:"#/properties/security/properties/adminKey/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err199];
}
else {
vErrors.push(err199);
}
errors++;
}
}
}
else {
const err200 = {instancePath:instancePath+"/security",schemaPath:"#/properties/security/type",keyword:"type",params:{type: "object"},message:"must be object"};
if(vErrors === null){
vErrors = [err200];
}
else {
vErrors.push(err200);
}
errors++;
}
}
if(data.rateLimit !== undefined){
const message38 = func1(data.rateLimit, [1,100000]);
if(message38 !== undefined){
const err201 = {instancePath:instancePath+"/rateLimit",schemaPath:"#/properties/rateLimit/xInt",keyword:"xInt",params:{},message:message38};
if(vErrors === null){
vErrors = [err201];
}
else {
vErrors.push(err201);
}
errors++;
}
}
if(data.effectDurationMs !== undefined){
const message39 = func1(data.effectDurationMs, [0,10000]);
if(message39 !== undefined){
const err202 = {instancePath:instancePath+"/effectDurationMs",schemaPath:"#/properties/effectDurationMs/xInt",keyword:"xInt",params:{},message:message39};
if(vErrors === null){
vErrors = [err202];
}
else {
vErrors.push(err202);
}
errors++;
}
}
if(data.fps !== undefined){
const message40 = func1(data.fps, [1,100]);
if(message40 !== undefined){
const err203 = {instancePath:instancePath+"/fps",schemaPath:"#/properties/fps/xInt",keyword:"xInt",params:{},message:message40};
if(vErrors === null){
vErrors = [err203];
}
else {
vErrors.push(err203);
}
errors++;
}
}
if(data.urlPortRange !== undefined){
let data109 = data.urlPortRange;
if(Array.isArray(data109)){
if(data109.length > 2){
const err204 = {instancePath:instancePath+"/urlPortRange",schemaPath:"#/properties/urlPortRange/maxItems",keyword:"maxItems",params:{limit: 2},message:"must NOT have more than 2 items"};
if(vErrors === null){
vErrors = [err204];
}
else {
vErrors.push(err204);
}
errors++;
}
if(data109.length < 2){
const err205 = {instancePath:instancePath+"/urlPortRange",schemaPath:"#/properties/urlPortRange/minItems",keyword:"minItems",params:{limit: 2},message:"must NOT have fewer than 2 items"};
if(vErrors === null){
vErrors = [err205];
}
else {
vErrors.push(err205);
}
errors++;
}
const len6 = data109.length;
for(let i6=0; i6<len6; i6++){
const message41 = func1(data109[i6], [1,65535]);
if(message41 !== undefined){
const err206 = {instancePath:instancePath+"/urlPortRange/" + i6,schemaPath:"#/properties/urlPortRange/items/xInt",keyword:"xInt",params:{},message:message41};
if(vErrors === null){
vErrors = [err206];
}
else {
vErrors.push(err206);
}
errors++;
}
}
}
else {
const err207 = {instancePath:instancePath+"/urlPortRange",schemaPath:"#/properties/urlPortRange/type",keyword:"type",params:{type: "array"},message:"must be array"};
if(vErrors === null){
vErrors = [err207];
}
else {
vErrors.push(err207);
}
errors++;
}
}
if(data.audioDevice !== undefined){
let data111 = data.audioDevice;
if(typeof data111 === "string"){
if(func2(data111) > 255){
const err208 = {instancePath:instancePath+"/audioDevice",schemaPath:"#/properties/audioDevice/maxLength",keyword:"maxLength",params:{limit: 255},message:"must NOT have more than 255 characters"};
if(vErrors === null){
vErrors = [err208];
}
else {
vErrors.push(err208);
}
errors++;
}
if(func2(data111) < 1){
const err209 = {instancePath:instancePath+"/audioDevice",schemaPath:"#/properties/audioDevice/minLength",keyword:"minLength",params:{limit: 1},message:"must NOT have fewer than 1 characters"};
if(vErrors === null){
vErrors = [err209];
}
else {
vErrors.push(err209);
}
errors++;
}
}
else {
const err210 = {instancePath:instancePath+"/audioDevice",schemaPath:"#/properties/audioDevice/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err210];
}
else {
vErrors.push(err210);
}
errors++;
}
}
if(data.webRefreshSeconds !== undefined){
const message42 = func1(data.webRefreshSeconds, [1,86400]);
if(message42 !== undefined){
const err211 = {instancePath:instancePath+"/webRefreshSeconds",schemaPath:"#/properties/webRefreshSeconds/xInt",keyword:"xInt",params:{},message:message42};
if(vErrors === null){
vErrors = [err211];
}
else {
vErrors.push(err211);
}
errors++;
}
}
if(data.limits !== undefined){
let data113 = data.limits;
if(data113 && typeof data113 == "object" && !Array.isArray(data113)){
for(const key24 in data113){
if(!(func0.call(schema0.properties.limits.properties, key24))){
const err212 = {instancePath:instancePath+"/limits",schemaPath:"#/properties/limits/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key24},message:"must NOT have additional properties"};
if(vErrors === null){
vErrors = [err212];
}
else {
vErrors.push(err212);
}
errors++;
}
}
if(data113.headersTimeoutMs !== undefined){
const message43 = func1(data113.headersTimeoutMs, [1000,600000]);
if(message43 !== undefined){
const err213 = {instancePath:instancePath+"/limits/headersTimeoutMs",schemaPath:"#/properties/limits/properties/headersTimeoutMs/xInt",keyword:"xInt",params:{},message:message43};
if(vErrors === null){
vErrors = [err213];
}
else {
vErrors.push(err213);
}
errors++;
}
}
if(data113.requestTimeoutMs !== undefined){
const message44 = func1(data113.requestTimeoutMs, [1000,3600000]);
if(message44 !== undefined){
const err214 = {instancePath:instancePath+"/limits/requestTimeoutMs",schemaPath:"#/properties/limits/properties/requestTimeoutMs/xInt",keyword:"xInt",params:{},message:message44};
if(vErrors === null){
vErrors = [err214];
}
else {
vErrors.push(err214);
}
errors++;
}
}
if(data113.keepAliveTimeoutMs !== undefined){
const message45 = func1(data113.keepAliveTimeoutMs, [100,600000]);
if(message45 !== undefined){
const err215 = {instancePath:instancePath+"/limits/keepAliveTimeoutMs",schemaPath:"#/properties/limits/properties/keepAliveTimeoutMs/xInt",keyword:"xInt",params:{},message:message45};
if(vErrors === null){
vErrors = [err215];
}
else {
vErrors.push(err215);
}
errors++;
}
}
if(data113.idleTimeoutMs !== undefined){
const message46 = func1(data113.idleTimeoutMs, [1000,3600000]);
if(message46 !== undefined){
const err216 = {instancePath:instancePath+"/limits/idleTimeoutMs",schemaPath:"#/properties/limits/properties/idleTimeoutMs/xInt",keyword:"xInt",params:{},message:message46};
if(vErrors === null){
vErrors = [err216];
}
else {
vErrors.push(err216);
}
errors++;
}
}
if(data113.maxUrlBytes !== undefined){
const message47 = func1(data113.maxUrlBytes, [256,1048576]);
if(message47 !== undefined){
const err217 = {instancePath:instancePath+"/limits/maxUrlBytes",schemaPath:"#/properties/limits/properties/maxUrlBytes/xInt",keyword:"xInt",params:{},message:message47};
if(vErrors === null){
vErrors = [err217];
}
else {
vErrors.push(err217);
}
errors++;
}
}
if(data113.maxHeaderBytes !== undefined){
const message48 = func1(data113.maxHeaderBytes, [1024,1048576]);
if(message48 !== undefined){
const err218 = {instancePath:instancePath+"/limits/maxHeaderBytes",schemaPath:"#/properties/limits/properties/maxHeaderBytes/xInt",keyword:"xInt",params:{},message:message48};
if(vErrors === null){
vErrors = [err218];
}
else {
vErrors.push(err218);
}
errors++;
}
}
if(data113.maxConnections !== undefined){
const message49 = func1(data113.maxConnections, [1,100000]);
if(message49 !== undefined){
const err219 = {instancePath:instancePath+"/limits/maxConnections",schemaPath:"#/properties/limits/properties/maxConnections/xInt",keyword:"xInt",params:{},message:message49};
if(vErrors === null){
vErrors = [err219];
}
else {
vErrors.push(err219);
}
errors++;
}
}
if(data113.maxConnectionsPerClient !== undefined){
const message50 = func1(data113.maxConnectionsPerClient, [1,100000]);
if(message50 !== undefined){
const err220 = {instancePath:instancePath+"/limits/maxConnectionsPerClient",schemaPath:"#/properties/limits/properties/maxConnectionsPerClient/xInt",keyword:"xInt",params:{},message:message50};
if(vErrors === null){
vErrors = [err220];
}
else {
vErrors.push(err220);
}
errors++;
}
}
if(data113.maxStreams !== undefined){
const message51 = func1(data113.maxStreams, [1,99999]);
if(message51 !== undefined){
const err221 = {instancePath:instancePath+"/limits/maxStreams",schemaPath:"#/properties/limits/properties/maxStreams/xInt",keyword:"xInt",params:{},message:message51};
if(vErrors === null){
vErrors = [err221];
}
else {
vErrors.push(err221);
}
errors++;
}
}
}
else {
const err222 = {instancePath:instancePath+"/limits",schemaPath:"#/properties/limits/type",keyword:"type",params:{type: "object"},message:"must be object"};
if(vErrors === null){
vErrors = [err222];
}
else {
vErrors.push(err222);
}
errors++;
}
}
if(data.network !== undefined){
let data123 = data.network;
if(data123 && typeof data123 == "object" && !Array.isArray(data123)){
for(const key25 in data123){
if(!(((key25 === "interface") || (key25 === "networkdDir")) || (key25 === "rollbackSeconds"))){
const err223 = {instancePath:instancePath+"/network",schemaPath:"#/properties/network/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key25},message:"must NOT have additional properties"};
if(vErrors === null){
vErrors = [err223];
}
else {
vErrors.push(err223);
}
errors++;
}
}
if(data123.interface !== undefined){
let data124 = data123.interface;
if(typeof data124 === "string"){
if(!pattern6.test(data124)){
const err224 = {instancePath:instancePath+"/network/interface",schemaPath:"#/properties/network/properties/interface/pattern",keyword:"pattern",params:{pattern: "^[A-Za-z0-9_.:-]{1,15}$"},message:"must match pattern \""+"^[A-Za-z0-9_.:-]{1,15}$"+"\""};
if(vErrors === null){
vErrors = [err224];
}
else {
vErrors.push(err224);
}
errors++;
}
}
else {
const err225 = {instancePath:instancePath+"/network/interface",schemaPath:"#/properties/network/properties/interface/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err225];
}
else {
vErrors.push(err225);
}
errors++;
}
}
if(data123.networkdDir !== undefined){
let data125 = data123.networkdDir;
if(typeof data125 === "string"){
if(func2(data125) > 255){
const err226 = {instancePath:instancePath+"/network/networkdDir",schemaPath:"#/properties/network/properties/networkdDir/maxLength",keyword:"maxLength",params:{limit: 255},message:"must NOT have more than 255 characters"};
if(vErrors === null){
vErrors = [err226];
}
else {
vErrors.push(err226);
}
errors++;
}
if(func2(data125) < 1){
const err227 = {instancePath:instancePath+"/network/networkdDir",schemaPath:"#/properties/network/properties/networkdDir/minLength",keyword:"minLength",params:{limit: 1},message:"must NOT have fewer than 1 characters"};
if(vErrors === null){
vErrors = [err227];
}
else {
vErrors.push(err227);
}
errors++;
}
if(!pattern9.test(data125)){
const err228 = {instancePath:instancePath+"/network/networkdDir",schemaPath:"#/properties/network/properties/networkdDir/pattern",keyword:"pattern",params:{pattern: "^/"},message:"must match pattern \""+"^/"+"\""};
if(vErrors === null){
vErrors = [err228];
}
else {
vErrors.push(err228);
}
errors++;
}
}
else {
const err229 = {instancePath:instancePath+"/network/networkdDir",schemaPath:"#/properties/network/properties/networkdDir/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err229];
}
else {
vErrors.push(err229);
}
errors++;
}
}
if(data123.rollbackSeconds !== undefined){
const message52 = func1(data123.rollbackSeconds, [1,3600]);
if(message52 !== undefined){
const err230 = {instancePath:instancePath+"/network/rollbackSeconds",schemaPath:"#/properties/network/properties/rollbackSeconds/xInt",keyword:"xInt",params:{},message:message52};
if(vErrors === null){
vErrors = [err230];
}
else {
vErrors.push(err230);
}
errors++;
}
}
}
else {
const err231 = {instancePath:instancePath+"/network",schemaPath:"#/properties/network/type",keyword:"type",params:{type: "object"},message:"must be object"};
if(vErrors === null){
vErrors = [err231];
}
else {
vErrors.push(err231);
}
errors++;
}
}
if(data.mdns !== undefined){
let data127 = data.mdns;
const _errs217 = errors;
let valid46 = true;
const _errs218 = errors;
if(!(data127 && typeof data127 == "object" && !Array.isArray(data127))){
const err232 = {};
if(vErrors === null){
vErrors = [err232];
}
else {
vErrors.push(err232);
}
errors++;
}
var _valid0 = _errs218 === errors;
errors = _errs217;
if(vErrors !== null){
if(_errs217){
vErrors.length = _errs217;
}
else {
vErrors = null;
}
}
let ifClause0;
if(_valid0){
const _errs220 = errors;
if(data127 && typeof data127 == "object" && !Array.isArray(data127)){
for(const key26 in data127){
if(!(((key26 === "enabled") || (key26 === "name")) || (key26 === "interface"))){
const err233 = {instancePath:instancePath+"/mdns",schemaPath:"#/properties/mdns/then/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key26},message:"must NOT have additional properties"};
if(vErrors === null){
vErrors = [err233];
}
else {
vErrors.push(err233);
}
errors++;
}
}
if(data127.enabled !== undefined){
const message53 = func5(data127.enabled, true);
if(message53 !== undefined){
const err234 = {instancePath:instancePath+"/mdns/enabled",schemaPath:"#/properties/mdns/then/properties/enabled/xBool",keyword:"xBool",params:{},message:message53};
if(vErrors === null){
vErrors = [err234];
}
else {
vErrors.push(err234);
}
errors++;
}
}
if(data127.name !== undefined){
let data129 = data127.name;
if(typeof data129 === "string"){
if(func2(data129) > 63){
const err235 = {instancePath:instancePath+"/mdns/name",schemaPath:"#/properties/mdns/then/properties/name/maxLength",keyword:"maxLength",params:{limit: 63},message:"must NOT have more than 63 characters"};
if(vErrors === null){
vErrors = [err235];
}
else {
vErrors.push(err235);
}
errors++;
}
if(func2(data129) < 1){
const err236 = {instancePath:instancePath+"/mdns/name",schemaPath:"#/properties/mdns/then/properties/name/minLength",keyword:"minLength",params:{limit: 1},message:"must NOT have fewer than 1 characters"};
if(vErrors === null){
vErrors = [err236];
}
else {
vErrors.push(err236);
}
errors++;
}
}
else {
const err237 = {instancePath:instancePath+"/mdns/name",schemaPath:"#/properties/mdns/then/properties/name/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err237];
}
else {
vErrors.push(err237);
}
errors++;
}
}
if(data127.interface !== undefined){
let data130 = data127.interface;
if(typeof data130 === "string"){
if(!pattern6.test(data130)){
const err238 = {instancePath:instancePath+"/mdns/interface",schemaPath:"#/properties/mdns/then/properties/interface/pattern",keyword:"pattern",params:{pattern: "^[A-Za-z0-9_.:-]{1,15}$"},message:"must match pattern \""+"^[A-Za-z0-9_.:-]{1,15}$"+"\""};
if(vErrors === null){
vErrors = [err238];
}
else {
vErrors.push(err238);
}
errors++;
}
}
else {
const err239 = {instancePath:instancePath+"/mdns/interface",schemaPath:"#/properties/mdns/then/properties/interface/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err239];
}
else {
vErrors.push(err239);
}
errors++;
}
}
}
else {
const err240 = {instancePath:instancePath+"/mdns",schemaPath:"#/properties/mdns/then/type",keyword:"type",params:{type: "object"},message:"must be object"};
if(vErrors === null){
vErrors = [err240];
}
else {
vErrors.push(err240);
}
errors++;
}
var _valid0 = _errs220 === errors;
valid46 = _valid0;
ifClause0 = "then";
}
else {
const _errs228 = errors;
const message54 = func5(data127, true);
if(message54 !== undefined){
const err241 = {instancePath:instancePath+"/mdns",schemaPath:"#/properties/mdns/else/xBool",keyword:"xBool",params:{},message:message54};
if(vErrors === null){
vErrors = [err241];
}
else {
vErrors.push(err241);
}
errors++;
}
var _valid0 = _errs228 === errors;
valid46 = _valid0;
ifClause0 = "else";
}
if(!valid46){
const err242 = {instancePath:instancePath+"/mdns",schemaPath:"#/properties/mdns/if",keyword:"if",params:{failingKeyword: ifClause0},message:"must match \""+ifClause0+"\" schema"};
if(vErrors === null){
vErrors = [err242];
}
else {
vErrors.push(err242);
}
errors++;
}
}
if(data.mqtt !== undefined){
let data131 = data.mqtt;
if(data131 && typeof data131 == "object" && !Array.isArray(data131)){
if(data131.url === undefined){
const err243 = {instancePath:instancePath+"/mqtt",schemaPath:"#/properties/mqtt/required",keyword:"required",params:{missingProperty: "url"},message:"must have required property '"+"url"+"'"};
if(vErrors === null){
vErrors = [err243];
}
else {
vErrors.push(err243);
}
errors++;
}
for(const key27 in data131){
if(!(func0.call(schema0.properties.mqtt.properties, key27))){
const err244 = {instancePath:instancePath+"/mqtt",schemaPath:"#/properties/mqtt/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key27},message:"must NOT have additional properties"};
if(vErrors === null){
vErrors = [err244];
}
else {
vErrors.push(err244);
}
errors++;
}
}
if(data131.url !== undefined){
let data132 = data131.url;
if(typeof data132 === "string"){
if(func2(data132) > 2048){
const err245 = {instancePath:instancePath+"/mqtt/url",schemaPath:"#/properties/mqtt/properties/url/maxLength",keyword:"maxLength",params:{limit: 2048},message:"must NOT have more than 2048 characters"};
if(vErrors === null){
vErrors = [err245];
}
else {
vErrors.push(err245);
}
errors++;
}
if(!pattern11.test(data132)){
const err246 = {instancePath:instancePath+"/mqtt/url",schemaPath:"#/properties/mqtt/properties/url/pattern",keyword:"pattern",params:{pattern: "^mqtts?://[^/?#@]+(:\\d{1,5})?/?$"},message:"must match pattern \""+"^mqtts?://[^/?#@]+(:\\d{1,5})?/?$"+"\""};
if(vErrors === null){
vErrors = [err246];
}
else {
vErrors.push(err246);
}
errors++;
}
}
else {
const err247 = {instancePath:instancePath+"/mqtt/url",schemaPath:"#/properties/mqtt/properties/url/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err247];
}
else {
vErrors.push(err247);
}
errors++;
}
}
if(data131.username !== undefined){
let data133 = data131.username;
if(typeof data133 === "string"){
if(func2(data133) > 255){
const err248 = {instancePath:instancePath+"/mqtt/username",schemaPath:"#/properties/mqtt/properties/username/maxLength",keyword:"maxLength",params:{limit: 255},message:"must NOT have more than 255 characters"};
if(vErrors === null){
vErrors = [err248];
}
else {
vErrors.push(err248);
}
errors++;
}
if(func2(data133) < 1){
const err249 = {instancePath:instancePath+"/mqtt/username",schemaPath:"#/properties/mqtt/properties/username/minLength",keyword:"minLength",params:{limit: 1},message:"must NOT have fewer than 1 characters"};
if(vErrors === null){
vErrors = [err249];
}
else {
vErrors.push(err249);
}
errors++;
}
}
else {
const err250 = {instancePath:instancePath+"/mqtt/username",schemaPath:"#/properties/mqtt/properties/username/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err250];
}
else {
vErrors.push(err250);
}
errors++;
}
}
if(data131.password !== undefined){
let data134 = data131.password;
if(typeof data134 === "string"){
if(func2(data134) > 1024){
const err251 = {instancePath:instancePath+"/mqtt/password",schemaPath:"#/properties/mqtt/properties/password/maxLength",keyword:"maxLength",params:{limit: 1024},message:"must NOT have more than 1024 characters"};
if(vErrors === null){
vErrors = [err251];
}
else {
vErrors.push(err251);
}
errors++;
}
}
else {
const err252 = {instancePath:instancePath+"/mqtt/password",schemaPath:"#/properties/mqtt/properties/password/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err252];
}
else {
vErrors.push(err252);
}
errors++;
}
}
if(data131.cert !== undefined){
let data135 = data131.cert;
if(typeof data135 === "string"){
if(func2(data135) > 255){
const err253 = {instancePath:instancePath+"/mqtt/cert",schemaPath:"#/properties/mqtt/properties/cert/maxLength",keyword:"maxLength",params:{limit: 255},message:"must NOT have more than 255 characters"};
if(vErrors === null){
vErrors = [err253];
}
else {
vErrors.push(err253);
}
errors++;
}
if(func2(data135) < 1){
const err254 = {instancePath:instancePath+"/mqtt/cert",schemaPath:"#/properties/mqtt/properties/cert/minLength",keyword:"minLength",params:{limit: 1},message:"must NOT have fewer than 1 characters"};
if(vErrors === null){
vErrors = [err254];
}
else {
vErrors.push(err254);
}
errors++;
}
}
else {
const err255 = {instancePath:instancePath+"/mqtt/cert",schemaPath:"#/properties/mqtt/properties/cert/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err255];
}
else {
vErrors.push(err255);
}
errors++;
}
}
if(data131.key !== undefined){
let data136 = data131.key;
if(typeof data136 === "string"){
if(func2(data136) > 255){
const err256 = {instancePath:instancePath+"/mqtt/key",schemaPath:"#/properties/mqtt/properties/key/maxLength",keyword:"maxLength",params:{limit: 255},message:"must NOT have more than 255 characters"};
if(vErrors === null){
vErrors = [err256];
}
else {
vErrors.push(err256);
}
errors++;
}
if(func2(data136) < 1){
const err257 = {instancePath:instancePath+"/mqtt/key",schemaPath:"#/properties/mqtt/properties/key/minLength",keyword:"minLength",params:{limit: 1},message:"must NOT have fewer than 1 characters"};
if(vErrors === null){
vErrors = [err257];
}
else {
vErrors.push(err257);
}
errors++;
}
}
else {
const err258 = {instancePath:instancePath+"/mqtt/key",schemaPath:"#/properties/mqtt/properties/key/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err258];
}
else {
vErrors.push(err258);
}
errors++;
}
}
if(data131.ca !== undefined){
let data137 = data131.ca;
if(typeof data137 === "string"){
if(func2(data137) > 255){
const err259 = {instancePath:instancePath+"/mqtt/ca",schemaPath:"#/properties/mqtt/properties/ca/maxLength",keyword:"maxLength",params:{limit: 255},message:"must NOT have more than 255 characters"};
if(vErrors === null){
vErrors = [err259];
}
else {
vErrors.push(err259);
}
errors++;
}
if(func2(data137) < 1){
const err260 = {instancePath:instancePath+"/mqtt/ca",schemaPath:"#/properties/mqtt/properties/ca/minLength",keyword:"minLength",params:{limit: 1},message:"must NOT have fewer than 1 characters"};
if(vErrors === null){
vErrors = [err260];
}
else {
vErrors.push(err260);
}
errors++;
}
}
else {
const err261 = {instancePath:instancePath+"/mqtt/ca",schemaPath:"#/properties/mqtt/properties/ca/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err261];
}
else {
vErrors.push(err261);
}
errors++;
}
}
if(data131.unit !== undefined){
let data138 = data131.unit;
if(typeof data138 === "string"){
if(!pattern12.test(data138)){
const err262 = {instancePath:instancePath+"/mqtt/unit",schemaPath:"#/properties/mqtt/properties/unit/pattern",keyword:"pattern",params:{pattern: "^[^/+#\\u0000]{1,64}$"},message:"must match pattern \""+"^[^/+#\\u0000]{1,64}$"+"\""};
if(vErrors === null){
vErrors = [err262];
}
else {
vErrors.push(err262);
}
errors++;
}
}
else {
const err263 = {instancePath:instancePath+"/mqtt/unit",schemaPath:"#/properties/mqtt/properties/unit/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err263];
}
else {
vErrors.push(err263);
}
errors++;
}
}
if(data131.prefix !== undefined){
let data139 = data131.prefix;
if(typeof data139 === "string"){
if(!pattern12.test(data139)){
const err264 = {instancePath:instancePath+"/mqtt/prefix",schemaPath:"#/properties/mqtt/properties/prefix/pattern",keyword:"pattern",params:{pattern: "^[^/+#\\u0000]{1,64}$"},message:"must match pattern \""+"^[^/+#\\u0000]{1,64}$"+"\""};
if(vErrors === null){
vErrors = [err264];
}
else {
vErrors.push(err264);
}
errors++;
}
}
else {
const err265 = {instancePath:instancePath+"/mqtt/prefix",schemaPath:"#/properties/mqtt/properties/prefix/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err265];
}
else {
vErrors.push(err265);
}
errors++;
}
}
if(data131.groups !== undefined){
let data140 = data131.groups;
if(Array.isArray(data140)){
if(data140.length > 32){
const err266 = {instancePath:instancePath+"/mqtt/groups",schemaPath:"#/properties/mqtt/properties/groups/maxItems",keyword:"maxItems",params:{limit: 32},message:"must NOT have more than 32 items"};
if(vErrors === null){
vErrors = [err266];
}
else {
vErrors.push(err266);
}
errors++;
}
const len7 = data140.length;
for(let i7=0; i7<len7; i7++){
let data141 = data140[i7];
if(typeof data141 === "string"){
if(!pattern12.test(data141)){
const err267 = {instancePath:instancePath+"/mqtt/groups/" + i7,schemaPath:"#/properties/mqtt/properties/groups/items/pattern",keyword:"pattern",params:{pattern: "^[^/+#\\u0000]{1,64}$"},message:"must match pattern \""+"^[^/+#\\u0000]{1,64}$"+"\""};
if(vErrors === null){
vErrors = [err267];
}
else {
vErrors.push(err267);
}
errors++;
}
}
else {
const err268 = {instancePath:instancePath+"/mqtt/groups/" + i7,schemaPath:"#/properties/mqtt/properties/groups/items/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err268];
}
else {
vErrors.push(err268);
}
errors++;
}
}
let i8 = data140.length;
let j0;
if(i8 > 1){
const indices0 = {};
for(;i8--;){
let item0 = data140[i8];
if(typeof item0 !== "string"){
continue;
}
if(typeof indices0[item0] == "number"){
j0 = indices0[item0];
const err269 = {instancePath:instancePath+"/mqtt/groups",schemaPath:"#/properties/mqtt/properties/groups/uniqueItems",keyword:"uniqueItems",params:{i: i8, j: j0},message:"must NOT have duplicate items (items ## "+j0+" and "+i8+" are identical)"};
if(vErrors === null){
vErrors = [err269];
}
else {
vErrors.push(err269);
}
errors++;
break;
}
indices0[item0] = i8;
}
}
}
else {
const err270 = {instancePath:instancePath+"/mqtt/groups",schemaPath:"#/properties/mqtt/properties/groups/type",keyword:"type",params:{type: "array"},message:"must be array"};
if(vErrors === null){
vErrors = [err270];
}
else {
vErrors.push(err270);
}
errors++;
}
}
if(data131.keepalive !== undefined){
const message55 = func1(data131.keepalive, [1,3600]);
if(message55 !== undefined){
const err271 = {instancePath:instancePath+"/mqtt/keepalive",schemaPath:"#/properties/mqtt/properties/keepalive/xInt",keyword:"xInt",params:{},message:message55};
if(vErrors === null){
vErrors = [err271];
}
else {
vErrors.push(err271);
}
errors++;
}
}
if(data131.homeAssistant !== undefined){
const message56 = func5(data131.homeAssistant, true);
if(message56 !== undefined){
const err272 = {instancePath:instancePath+"/mqtt/homeAssistant",schemaPath:"#/properties/mqtt/properties/homeAssistant/xBool",keyword:"xBool",params:{},message:message56};
if(vErrors === null){
vErrors = [err272];
}
else {
vErrors.push(err272);
}
errors++;
}
}
}
else {
const err273 = {instancePath:instancePath+"/mqtt",schemaPath:"#/properties/mqtt/type",keyword:"type",params:{type: "object"},message:"must be object"};
if(vErrors === null){
vErrors = [err273];
}
else {
vErrors.push(err273);
}
errors++;
}
}
if(data.sensors !== undefined){
let data144 = data.sensors;
if(Array.isArray(data144)){
const len8 = data144.length;
for(let i9=0; i9<len8; i9++){
let data145 = data144[i9];
if(data145 && typeof data145 == "object" && !Array.isArray(data145)){
if(data145.protocol === undefined){
const err274 = {instancePath:instancePath+"/sensors/" + i9,schemaPath:"#/properties/sensors/items/required",keyword:"required",params:{missingProperty: "protocol"},message:"must have required property '"+"protocol"+"'"};
if(vErrors === null){
vErrors = [err274];
}
else {
vErrors.push(err274);
}
errors++;
}
if(data145.displays === undefined){
const err275 = {instancePath:instancePath+"/sensors/" + i9,schemaPath:"#/properties/sensors/items/required",keyword:"required",params:{missingProperty: "displays"},message:"must have required property '"+"displays"+"'"};
if(vErrors === null){
vErrors = [err275];
}
else {
vErrors.push(err275);
}
errors++;
}
for(const key28 in data145){
if(!(func0.call(schema0.properties.sensors.items.properties, key28))){
const err276 = {instancePath:instancePath+"/sensors/" + i9,schemaPath:"#/properties/sensors/items/additionalProperties",keyword:"additionalProperties",params:{additionalProperty: key28},message:"must NOT have additional properties"};
if(vErrors === null){
vErrors = [err276];
}
else {
vErrors.push(err276);
}
errors++;
}
}
if(data145.path !== undefined){
let data146 = data145.path;
if(typeof data146 === "string"){
if(!pattern5.test(data146)){
const err277 = {instancePath:instancePath+"/sensors/" + i9+"/path",schemaPath:"#/properties/sensors/items/properties/path/pattern",keyword:"pattern",params:{pattern: "^/dev/"},message:"must match pattern \""+"^/dev/"+"\""};
if(vErrors === null){
vErrors = [err277];
}
else {
vErrors.push(err277);
}
errors++;
}
}
else {
const err278 = {instancePath:instancePath+"/sensors/" + i9+"/path",schemaPath:"#/properties/sensors/items/properties/path/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err278];
}
else {
vErrors.push(err278);
}
errors++;
}
}
if(data145.baudRate !== undefined){
const message57 = func1(data145.baudRate, [300,4000000]);
if(message57 !== undefined){
const err279 = {instancePath:instancePath+"/sensors/" + i9+"/baudRate",schemaPath:"#/properties/sensors/items/properties/baudRate/xInt",keyword:"xInt",params:{},message:message57};
if(vErrors === null){
vErrors = [err279];
}
else {
vErrors.push(err279);
}
errors++;
}
}
if(data145.protocol !== undefined){
let data148 = data145.protocol;
if(!(((data148 === "ascii") || (data148 === "modbus-rtu")) || (data148 === "modbus-tcp"))){
const err280 = {instancePath:instancePath+"/sensors/" + i9+"/protocol",schemaPath:"#/properties/sensors/items/properties/protocol/enum",keyword:"enum",params:{allowedValues: schema0.properties.sensors.items.properties.protocol.enum},message:"must be equal to one of the allowed values"};
if(vErrors === null){
vErrors = [err280];
}
else {
vErrors.push(err280);
}
errors++;
}
}
if(data145.unitId !== undefined){
const message58 = func1(data145.unitId, [0,255]);
if(message58 !== undefined){
const err281 = {instancePath:instancePath+"/sensors/" + i9+"/unitId",schemaPath:"#/properties/sensors/items/properties/unitId/xInt",keyword:"xInt",params:{},message:message58};
if(vErrors === null){
vErrors = [err281];
}
else {
vErrors.push(err281);
}
errors++;
}
}
if(data145.register !== undefined){
const message59 = func1(data145.register, [0,65535]);
if(message59 !== undefined){
const err282 = {instancePath:instancePath+"/sensors/" + i9+"/register",schemaPath:"#/properties/sensors/items/properties/register/xInt",keyword:"xInt",params:{},message:message59};
if(vErrors === null){
vErrors = [err282];
}
else {
vErrors.push(err282);
}
errors++;
}
}
if(data145.pollMs !== undefined){
const message60 = func1(data145.pollMs, [100,3600000]);
if(message60 !== undefined){
const err283 = {instancePath:instancePath+"/sensors/" + i9+"/pollMs",schemaPath:"#/properties/sensors/items/properties/pollMs/xInt",keyword:"xInt",params:{},message:message60};
if(vErrors === null){
vErrors = [err283];
}
else {
vErrors.push(err283);
}
errors++;
}
}
if(data145.host !== undefined){
let data152 = data145.host;
if(typeof data152 === "string"){
if(func2(data152) > 255){
const err284 = {instancePath:instancePath+"/sensors/" + i9+"/host",schemaPath:"#/properties/sensors/items/properties/host/maxLength",keyword:"maxLength",params:{limit: 255},message:"must NOT have more than 255 characters"};
if(vErrors === null){
vErrors = [err284];
}
else {
vErrors.push(err284);
}
errors++;
}
if(func2(data152) < 1){
const err285 = {instancePath:instancePath+"/sensors/" + i9+"/host",schemaPath:"#/properties/sensors/items/properties/host/minLength",keyword:"minLength",params:{limit: 1},message:"must NOT have fewer than 1 characters"};
if(vErrors === null){
vErrors = [err285];
}
else {
vErrors.push(err285);
}
errors++;
}
}
else {
const err286 = {instancePath:instancePath+"/sensors/" + i9+"/host",schemaPath:"#/properties/sensors/items/properties/host/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err286];
}
else {
vErrors.push(err286);
}
errors++;
}
}
if(data145.port !== undefined){
const message61 = func1(data145.port, [1,65535]);
if(message61 !== undefined){
const err287 = {instancePath:instancePath+"/sensors/" + i9+"/port",schemaPath:"#/properties/sensors/items/properties/port/xInt",keyword:"xInt",params:{},message:message61};
if(vErrors === null){
vErrors = [err287];
}
else {
vErrors.push(err287);
}
errors++;
}
}
if(data145.curve !== undefined){
let data154 = data145.curve;
if(Array.isArray(data154)){
if(data154.length < 2){
const err288 = {instancePath:instancePath+"/sensors/" + i9+"/curve",schemaPath:"#/properties/sensors/items/properties/curve/minItems",keyword:"minItems",params:{limit: 2},message:"must NOT have fewer than 2 items"};
if(vErrors === null){
vErrors = [err288];
}
else {
vErrors.push(err288);
}
errors++;
}
const len9 = data154.length;
for(let i10=0; i10<len9; i10++){
let data155 = data154[i10];
if(Array.isArray(data155)){
if(data155.length > 2){
const err289 = {instancePath:instancePath+"/sensors/" + i9+"/curve/" + i10,schemaPath:"#/properties/sensors/items/properties/curve/items/maxItems",keyword:"maxItems",params:{limit: 2},message:"must NOT have more than 2 items"};
if(vErrors === null){
vErrors = [err289];
}
else {
vErrors.push(err289);
}
errors++;
}
if(data155.length < 2){
const err290 = {instancePath:instancePath+"/sensors/" + i9+"/curve/" + i10,schemaPath:"#/properties/sensors/items/properties/curve/items/minItems",keyword:"minItems",params:{limit: 2},message:"must NOT have fewer than 2 items"};
if(vErrors === null){
vErrors = [err290];
}
else {
vErrors.push(err290);
}
errors++;
}
const len10 = data155.length;
for(let i11=0; i11<len10; i11++){
const message62 = func51(data155[i11], [0,1000000]);
if(message62 !== undefined){
const err291 = {instancePath:instancePath+"/sensors/" + i9+"/curve/" + i10+"/" + i11,schemaPath:"#/properties/sensors/items/properties/curve/items/items/xNum",keyword:"xNum",params:{},message:message62};
if(vErrors === null){
vErrors = [err291];
}
else {
vErrors.push(err291);
}
errors++;
}
}
}
else {
const err292 = {instancePath:instancePath+"/sensors/" + i9+"/curve/" + i10,schemaPath:"#/properties/sensors/items/properties/curve/items/type",keyword:"type",params:{type: "array"},message:"must be array"};
if(vErrors === null){
vErrors = [err292];
}
else {
vErrors.push(err292);
}
errors++;
}
}
}
else {
const err293 = {instancePath:instancePath+"/sensors/" + i9+"/curve",schemaPath:"#/properties/sensors/items/properties/curve/type",keyword:"type",params:{type: "array"},message:"must be array"};
if(vErrors === null){
vErrors = [err293];
}
else {
vErrors.push(err293);
}
errors++;
}
}
if(data145.displays !== undefined){
let data157 = data145.displays;
if(Array.isArray(data157)){
if(data157.length < 1){
const err294 = {instancePath:instancePath+"/sensors/" + i9+"/displays",schemaPath:"#/properties/sensors/items/properties/displays/minItems",keyword:"minItems",params:{limit: 1},message:"must NOT have fewer than 1 items"};
if(vErrors === null){
vErrors = [err294];
}
else {
vErrors.push(err294);
}
errors++;
}
const len11 = data157.length;
for(let i12=0; i12<len11; i12++){
if(typeof data157[i12] !== "string"){
const err295 = {instancePath:instancePath+"/sensors/" + i9+"/displays/" + i12,schemaPath:"#/properties/sensors/items/properties/displays/items/type",keyword:"type",params:{type: "string"},message:"must be string"};
if(vErrors === null){
vErrors = [err295];
}
else {
vErrors.push(err295);
}
errors++;
}
}
}
else {
const err296 = {instancePath:instancePath+"/sensors/" + i9+"/displays",schemaPath:"#/properties/sensors/items/properties/displays/type",keyword:"type",params:{type: "array"},message:"must be array"};
if(vErrors === null){
vErrors = [err296];
}
else {
vErrors.push(err296);
}
errors++;
}
}
}
else {
const err297 = {instancePath:instancePath+"/sensors/" + i9,schemaPath:"#/properties/sensors/items/type",keyword:"type",params:{type: "object"},message:"must be object"};
if(vErrors === null){
vErrors = [err297];
}
else {
vErrors.push(err297);
}
errors++;
}
}
}
else {
const err298 = {instancePath:instancePath+"/sensors",schemaPath:"#/properties/sensors/type",keyword:"type",params:{type: "array"},message:"must be array"};
if(vErrors === null){
vErrors = [err298];
}
else {
vErrors.push(err298);
}
errors++;
}
}
}
else {
const err299 = {instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object"};
if(vErrors === null){
vErrors = [err299];
}
else {
vErrors.push(err299);
}
errors++;
}
validate0.errors = vErrors;
return errors === 0;
}

