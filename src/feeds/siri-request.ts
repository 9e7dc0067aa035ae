// The SIRI-SM request a feed with `method: "post"` sends (SIRI 2.0, siri.org.uk schema):
//   <Siri xmlns="http://www.siri.org.uk/siri" version="2.0">
//     <ServiceRequest>
//       <RequestTimestamp/> <RequestorRef/> <MessageIdentifier/>
//       <StopMonitoringRequest version="2.0"> (one per stop of the feed's boards)
//         <RequestTimestamp/> <MessageIdentifier/> <MonitoringRef/>
//       </StopMonitoringRequest>
//     </ServiceRequest>
//   </Siri>
// Every value is escaped: stop ids and the requestor come from the configuration.

const escape = (s: string) => s.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);

export function stopMonitoringRequest(requestorRef: string, stops: readonly string[], now: number): string {
  const at = new Date(now).toISOString();
  const id = `mlds-${now}`;
  const each = stops.map(
    (s, i) =>
      '<StopMonitoringRequest version="2.0">' +
      `<RequestTimestamp>${at}</RequestTimestamp><MessageIdentifier>${id}-${i + 1}</MessageIdentifier>` +
      `<MonitoringRef>${escape(s)}</MonitoringRef></StopMonitoringRequest>`,
  );
  return (
    '<?xml version="1.0" encoding="UTF-8"?>\n' +
    '<Siri xmlns="http://www.siri.org.uk/siri" version="2.0"><ServiceRequest>' +
    `<RequestTimestamp>${at}</RequestTimestamp><RequestorRef>${escape(requestorRef)}</RequestorRef>` +
    `<MessageIdentifier>${id}</MessageIdentifier>${each.join('')}</ServiceRequest></Siri>\n`
  );
}
