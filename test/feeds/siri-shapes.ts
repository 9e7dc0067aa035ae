// SIRI documents shaped as real producers serve them, for the feeds tests: Entur's Norwegian
// profile (the `siri:` prefix, NSR ids, stop assignments), the CEN example's StopMonitoring,
// the French profile's SOAP answer, and SIRI-Lite JSON as Île-de-France Mobilités' PRIM
// (values as `{"value": ...}` objects) and 511 (no `Siri` object, a byte order mark) send it.
// Times are given relative to `now` so a board shows them as upcoming. Occupancy as each gives it:
// Entur on the call and the journey, the CEN example on the journey and (SIRI 2.1) the call's
// ExpectedDepartureOccupancy, PRIM on the journey.

const iso = (t: number) => new Date(t).toISOString().replace('.000Z', 'Z');
/** `t` as an Oslo wall-clock time with its offset (+01:00 in winter), as Entur writes it. */
const oslo = (t: number) => iso(t + 3600_000).replace('Z', '+01:00');
/** `t` as an Oslo wall-clock time with no offset at all. */
const osloBare = (t: number) => iso(t + 3600_000).replace('Z', '');
const MIN = 60_000;

/** Entur SIRI-ET: a train calling at Nationaltheatret (Quay 1 -> 2) and ending at Oslo S (arrival only). */
export function enturEt(now: number): string {
  return `<?xml version="1.0" encoding="UTF-8"?>
<siri:Siri xmlns:siri="http://www.siri.org.uk/siri" version="2.0">
 <siri:ServiceDelivery>
  <siri:ResponseTimestamp>${oslo(now)}</siri:ResponseTimestamp>
  <siri:ProducerRef>ENT</siri:ProducerRef>
  <siri:EstimatedTimetableDelivery version="2.0">
   <siri:ResponseTimestamp>${oslo(now)}</siri:ResponseTimestamp>
   <siri:EstimatedJourneyVersionFrame>
    <siri:RecordedAtTime>${oslo(now)}</siri:RecordedAtTime>
    <siri:EstimatedVehicleJourney>
     <siri:RecordedAtTime>${oslo(now)}</siri:RecordedAtTime>
     <siri:LineRef>VYG:Line:L1</siri:LineRef>
     <siri:DirectionRef>Outbound</siri:DirectionRef>
     <siri:FramedVehicleJourneyRef><siri:DataFrameRef>2026-11-28</siri:DataFrameRef><siri:DatedVehicleJourneyRef>VYG:ServiceJourney:2121</siri:DatedVehicleJourneyRef></siri:FramedVehicleJourneyRef>
     <siri:PublishedLineName>L1</siri:PublishedLineName>
     <siri:OperatorRef>VYG:Operator:VY</siri:OperatorRef>
     <siri:DestinationRef>NSR:Quay:OSLOS-9</siri:DestinationRef>
     <siri:Monitored>true</siri:Monitored>
     <siri:DataSource>BNR</siri:DataSource>
     <siri:IsCompleteStopSequence>true</siri:IsCompleteStopSequence>
     <siri:EstimatedCalls>
      <siri:EstimatedCall>
       <siri:StopPointRef>NSR:Quay:NTH-2</siri:StopPointRef>
       <siri:Order>1</siri:Order>
       <siri:StopPointName>Nationaltheatret</siri:StopPointName>
       <siri:DestinationDisplay>Oslo S</siri:DestinationDisplay>
       <siri:AimedArrivalTime>${oslo(now + 4 * MIN)}</siri:AimedArrivalTime>
       <siri:ExpectedArrivalTime>${oslo(now + 5 * MIN)}</siri:ExpectedArrivalTime>
       <siri:ArrivalPlatformName>2</siri:ArrivalPlatformName>
       <siri:ArrivalStopAssignment><siri:AimedQuayRef>NSR:Quay:NTH-1</siri:AimedQuayRef><siri:ExpectedQuayRef>NSR:Quay:NTH-2</siri:ExpectedQuayRef></siri:ArrivalStopAssignment>
       <siri:AimedDepartureTime>${oslo(now + 5 * MIN)}</siri:AimedDepartureTime>
       <siri:ExpectedDepartureTime>${oslo(now + 6 * MIN)}</siri:ExpectedDepartureTime>
       <siri:DeparturePlatformName>2</siri:DeparturePlatformName>
       <siri:DepartureStopAssignment><siri:AimedQuayRef>NSR:Quay:NTH-1</siri:AimedQuayRef><siri:ExpectedQuayRef>NSR:Quay:NTH-2</siri:ExpectedQuayRef></siri:DepartureStopAssignment>
       <siri:DepartureBoardingActivity>boarding</siri:DepartureBoardingActivity>
       <siri:Occupancy>standingAvailable</siri:Occupancy>
      </siri:EstimatedCall>
      <siri:EstimatedCall>
       <siri:StopPointRef>NSR:Quay:OSLOS-9</siri:StopPointRef>
       <siri:Order>2</siri:Order>
       <siri:StopPointName>Oslo S</siri:StopPointName>
       <siri:AimedArrivalTime>${oslo(now + 9 * MIN)}</siri:AimedArrivalTime>
       <siri:ExpectedArrivalTime>${oslo(now + 10 * MIN)}</siri:ExpectedArrivalTime>
       <siri:ArrivalPlatformName>9</siri:ArrivalPlatformName>
       <siri:ArrivalBoardingActivity>alighting</siri:ArrivalBoardingActivity>
      </siri:EstimatedCall>
     </siri:EstimatedCalls>
    </siri:EstimatedVehicleJourney>
    <siri:EstimatedVehicleJourney>
     <siri:LineRef>VYG:Line:R10</siri:LineRef>
     <siri:FramedVehicleJourneyRef><siri:DataFrameRef>2026-11-28</siri:DataFrameRef><siri:DatedVehicleJourneyRef>VYG:ServiceJourney:810</siri:DatedVehicleJourneyRef></siri:FramedVehicleJourneyRef>
     <siri:PublishedLineName>R10</siri:PublishedLineName>
     <siri:DestinationRef>NSR:Quay:DRM-1</siri:DestinationRef>
     <siri:Occupancy>seatsAvailable</siri:Occupancy>
     <siri:EstimatedCalls>
      <siri:EstimatedCall>
       <siri:StopPointRef>NSR:Quay:NTH-2</siri:StopPointRef>
       <siri:DestinationDisplay>Drammen</siri:DestinationDisplay>
       <siri:AimedDepartureTime>${oslo(now + 7 * MIN)}</siri:AimedDepartureTime>
       <siri:ExpectedDepartureTime>${oslo(now + 7 * MIN)}</siri:ExpectedDepartureTime>
       <siri:DeparturePlatformName>2</siri:DeparturePlatformName>
       <siri:DepartureStopAssignment><siri:AimedQuayRef>NSR:Quay:NTH-2</siri:AimedQuayRef><siri:ExpectedQuayRef>NSR:Quay:NTH-2</siri:ExpectedQuayRef></siri:DepartureStopAssignment>
      </siri:EstimatedCall>
      <siri:EstimatedCall>
       <siri:StopPointRef>NSR:Quay:OSLOS-9</siri:StopPointRef>
       <siri:DestinationDisplay>Drammen</siri:DestinationDisplay>
       <siri:AimedDepartureTime>${oslo(now + 3 * MIN)}</siri:AimedDepartureTime>
       <siri:ExpectedDepartureTime>${oslo(now + 3 * MIN)}</siri:ExpectedDepartureTime>
       <siri:DeparturePlatformName>9</siri:DeparturePlatformName>
      </siri:EstimatedCall>
     </siri:EstimatedCalls>
    </siri:EstimatedVehicleJourney>
   </siri:EstimatedJourneyVersionFrame>
  </siri:EstimatedTimetableDelivery>
 </siri:ServiceDelivery>
</siri:Siri>`;
}

/**
 * The CEN example's StopMonitoring, in the default namespace, with the stop given once on the
 * delivery (MonitoringRef) and (unless `stopOnVisit`) not on the visits, and times without an
 * offset (Oslo wall clock) unless `offsets`.
 * Visits: a departure, a journey ending here (DestinationRef), one that sets down only
 * (noBoarding), one marked noService, and a planned/expected quay change by name.
 */
export function cenSm(now: number, o: { offsets?: boolean; stopOnVisit?: boolean } = {}): string {
  const t = o.offsets ? oslo : osloBare;
  const visit = (
    id: string,
    line: string,
    dest: string,
    destRef: string,
    inMin: number,
    extra = '',
    platform = '',
    occupancy = '',
  ) => `
    <MonitoredStopVisit>
      <RecordedAtTime>${t(now)}</RecordedAtTime>
      <ItemIdentifier>${id}</ItemIdentifier>${o.stopOnVisit ? '\n      <MonitoringRef>HLTST011</MonitoringRef>' : ''}
      <MonitoredVehicleJourney>
        <LineRef>${line}</LineRef>
        <DirectionRef>Out</DirectionRef>
        <FramedVehicleJourneyRef><DataFrameRef>2026-11-28</DataFrameRef><DatedVehicleJourneyRef>${id}-j</DatedVehicleJourneyRef></FramedVehicleJourneyRef>
        <PublishedLineName>${line}</PublishedLineName>
        <DestinationRef>${destRef}</DestinationRef>
        <DestinationName>${dest}</DestinationName>${occupancy ? `\n        <Occupancy>${occupancy}</Occupancy>` : ''}
        <MonitoredCall>
          <AimedArrivalTime>${t(now + (inMin - 1) * MIN)}</AimedArrivalTime>
          <AimedDepartureTime>${t(now + inMin * MIN)}</AimedDepartureTime>
          <ExpectedDepartureTime>${t(now + inMin * MIN)}</ExpectedDepartureTime>
          ${platform}${extra}
        </MonitoredCall>
      </MonitoredVehicleJourney>
    </MonitoredStopVisit>`;
  return `<?xml version="1.0" encoding="UTF-8"?>
<Siri version="1.3" xmlns="http://www.siri.org.uk/siri">
  <ServiceDelivery>
    <ResponseTimestamp>${t(now)}</ResponseTimestamp>
    <ProducerRef>KUBRICK</ProducerRef>
    <StopMonitoringDelivery version="1.3">
      <ResponseTimestamp>${t(now)}</ResponseTimestamp>
      <RequestMessageRef>12345</RequestMessageRef>
      <MonitoringRef>HLTST011</MonitoringRef>
      ${visit('a', '123', 'Paradise Park', 'PLACE45', 4, '', '<DeparturePlatformName>B</DeparturePlatformName><PlannedStopAssignment><QuayName>A</QuayName></PlannedStopAssignment>', 'full')}
      ${visit('b', '124', 'Town Centre', 'HLTST011', 6)}
      ${visit('c', '125', 'Airport', 'AIR1', 8, '<DepartureBoardingActivity>noBoarding</DepartureBoardingActivity>')}
      ${visit('d', '126', 'Harbour', 'HBR1', 9, '<DepartureStatus>noService</DepartureStatus>')}
      ${visit('e', '127', 'Hospital', 'HSP1', 11, '<ExpectedDepartureOccupancy><OccupancyLevel>fewSeatsAvailable</OccupancyLevel></ExpectedDepartureOccupancy>', '<DeparturePlatformName>C</DeparturePlatformName><PlannedStopAssignment><QuayName>C</QuayName></PlannedStopAssignment>', 'full')}
    </StopMonitoringDelivery>
  </ServiceDelivery>
</Siri>`;
}

/** The French profile's SOAP answer to GetStopMonitoring (SIRI 2.0 FR-IDF), UTC times. */
export function frenchSoapSm(now: number): string {
  const visit = (id: string, line: string, dest: string, inMin: number) => `
     <siri:MonitoredStopVisit>
      <siri:RecordedAtTime>${iso(now)}</siri:RecordedAtTime>
      <siri:ItemIdentifier>RATP:Item::${id}:LOC</siri:ItemIdentifier>
      <siri:MonitoringRef>STIF:StopPoint:Q:22092:</siri:MonitoringRef>
      <siri:MonitoredVehicleJourney>
       <siri:LineRef>STIF:Line::${line}:</siri:LineRef>
       <siri:FramedVehicleJourneyRef><siri:DataFrameRef>any</siri:DataFrameRef><siri:DatedVehicleJourneyRef>RATP:VehicleJourney::${id}:LOC</siri:DatedVehicleJourneyRef></siri:FramedVehicleJourneyRef>
       <siri:PublishedLineName>${line}</siri:PublishedLineName>
       <siri:DestinationName>${dest}</siri:DestinationName>
       <siri:MonitoredCall>
        <siri:StopPointRef>STIF:StopPoint:Q:22092:</siri:StopPointRef>
        <siri:VehicleAtStop>false</siri:VehicleAtStop>
        <siri:ExpectedArrivalTime>${iso(now + (inMin - 1) * MIN)}</siri:ExpectedArrivalTime>
        <siri:ExpectedDepartureTime>${iso(now + inMin * MIN)}</siri:ExpectedDepartureTime>
        <siri:DepartureStatus>onTime</siri:DepartureStatus>
       </siri:MonitoredCall>
      </siri:MonitoredVehicleJourney>
     </siri:MonitoredStopVisit>`;
  return `<?xml version="1.0" encoding="UTF-8"?>
<S:Envelope xmlns:S="http://schemas.xmlsoap.org/soap/envelope/">
 <S:Body>
  <sw:GetStopMonitoringResponse xmlns:sw="http://wsdl.siri.org.uk" xmlns:siri="http://www.siri.org.uk/siri">
   <ServiceDeliveryInfo>
    <siri:ResponseTimestamp>${iso(now)}</siri:ResponseTimestamp>
    <siri:ProducerRef>RATP</siri:ProducerRef>
    <siri:ResponseMessageIdentifier>RATP:ResponseMessage::1:LOC</siri:ResponseMessageIdentifier>
    <siri:RequestMessageRef>mlds-1</siri:RequestMessageRef>
   </ServiceDeliveryInfo>
   <Answer>
    <siri:StopMonitoringDelivery version="2.0:FR-IDF-2.4">
     <siri:ResponseTimestamp>${iso(now)}</siri:ResponseTimestamp>
     <siri:RequestMessageRef>mlds-1</siri:RequestMessageRef>
     <siri:Status>true</siri:Status>${visit('8101', 'C01374', 'Château de Vincennes', 3)}${visit('8102', 'C01374', 'La D&#233;fense', 5)}
    </siri:StopMonitoringDelivery>
   </Answer>
   <AnswerExtension/>
  </sw:GetStopMonitoringResponse>
 </S:Body>
</S:Envelope>`;
}

/** A SOAP 1.1 Fault, as a French profile server answers a request it refuses. */
export const SOAP_FAULT = `<?xml version="1.0" encoding="UTF-8"?>
<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body><soap:Fault>
<faultcode>soap:Client</faultcode><faultstring>Unknown RequestorRef</faultstring></soap:Fault></soap:Body></soap:Envelope>`;

/** PRIM's SIRI-Lite stop-monitoring JSON: values as {"value": ...}, names as lists of them. */
export function primJson(now: number): string {
  const visit = (id: string, line: string, dest: string, inMin: number, platform: string, occupancy: string) => ({
    RecordedAtTime: iso(now),
    ItemIdentifier: `SNCF_ACCES_CLOUD:Item::${id}`,
    MonitoringRef: { value: 'STIF:StopPoint:Q:473921:' },
    MonitoredVehicleJourney: {
      LineRef: { value: `STIF:Line::${line}:` },
      OperatorRef: { value: 'SNCF_ACCES_CLOUD:Operator::SNCF:' },
      FramedVehicleJourneyRef: {
        DataFrameRef: { value: 'any' },
        DatedVehicleJourneyRef: `SNCF_ACCES_CLOUD:VehicleJourney::${id}:LOC`,
      },
      DirectionName: [{ value: dest }],
      DestinationRef: { value: 'STIF:StopPoint:Q:411352:' },
      DestinationName: [{ value: dest }],
      Occupancy: occupancy,
      JourneyNote: [],
      VehicleJourneyName: [],
      MonitoredCall: {
        StopPointName: [{ value: 'Châtelet les Halles' }],
        VehicleAtStop: false,
        DestinationDisplay: [{ value: dest }],
        ExpectedArrivalTime: iso(now + (inMin - 1) * MIN),
        ExpectedDepartureTime: iso(now + inMin * MIN),
        AimedDepartureTime: iso(now + inMin * MIN),
        DepartureStatus: 'onTime',
        ArrivalPlatformName: { value: platform },
        DepartureStopAssignment: { ExpectedQuayRef: { value: 'STIF:StopPoint:Q:473921:' } },
      },
    },
  });
  return JSON.stringify({
    Siri: {
      ServiceDelivery: {
        ResponseTimestamp: iso(now),
        ProducerRef: 'IVTR_HET',
        ResponseMessageIdentifier: 'IVTR_HET:ResponseMessage:1:LOC:',
        StopMonitoringDelivery: [
          {
            ResponseTimestamp: iso(now),
            Version: '2.0',
            Status: 'true',
            MonitoredStopVisit: [
              visit('PAUL', 'C01742', 'Saint-Germain-en-Laye', 2, '1', 'manySeatsAvailable'),
              visit('QIKI', 'C01742', 'Boissy-Saint-Léger', 4, '2', 'unknown'),
            ],
          },
        ],
      },
    },
  });
}

/** 511's SIRI-Lite JSON: a byte order mark, no Siri object, a delivery as one object. */
export function json511(now: number): string {
  return `\uFEFF${JSON.stringify({
    ServiceDelivery: {
      ResponseTimestamp: iso(now),
      ProducerRef: 'SF',
      Status: true,
      StopMonitoringDelivery: {
        version: '1.4',
        ResponseTimestamp: iso(now),
        Status: true,
        MonitoredStopVisit: [
          {
            RecordedAtTime: iso(now),
            MonitoringRef: '15553',
            MonitoredVehicleJourney: {
              LineRef: '14',
              DirectionRef: 'IB',
              FramedVehicleJourneyRef: { DataFrameRef: '2026-11-28', DatedVehicleJourneyRef: '11443123' },
              PublishedLineName: 'MISSION',
              OperatorRef: 'SF',
              DestinationRef: '15551',
              DestinationName: 'Ferry Plaza',
              Monitored: true,
              MonitoredCall: {
                StopPointRef: '15553',
                StopPointName: 'Mission St & 16th St',
                AimedArrivalTime: iso(now + 6 * MIN),
                ExpectedArrivalTime: iso(now + 7 * MIN),
                AimedDepartureTime: iso(now + 6 * MIN),
                ExpectedDepartureTime: null,
              },
            },
          },
        ],
      },
    },
  })}`;
}

/** Entur SIRI-SX: situations for the whole network, one journey, one line, one stop and a journey not running here. */
export function enturSx(now: number): string {
  const situation = (id: string, summary: string, affects: string) => `
    <siri:PtSituationElement>
     <siri:CreationTime>${oslo(now - 10 * MIN)}</siri:CreationTime>
     <siri:ParticipantRef>VYG</siri:ParticipantRef>
     <siri:SituationNumber>VYG:SituationNumber:${id}</siri:SituationNumber>
     <siri:Source><siri:SourceType>directReport</siri:SourceType></siri:Source>
     <siri:Progress>open</siri:Progress>
     <siri:ValidityPeriod><siri:StartTime>${oslo(now - 10 * MIN)}</siri:StartTime><siri:EndTime>${oslo(now + 120 * MIN)}</siri:EndTime></siri:ValidityPeriod>
     <siri:UndefinedReason/>
     <siri:ReportType>incident</siri:ReportType>
     <siri:Summary xml:lang="NO">${summary}</siri:Summary>
     <siri:Affects>${affects}</siri:Affects>
    </siri:PtSituationElement>`;
  return `<?xml version="1.0" encoding="UTF-8"?>
<siri:Siri xmlns:siri="http://www.siri.org.uk/siri" version="2.0">
 <siri:ServiceDelivery>
  <siri:ResponseTimestamp>${oslo(now)}</siri:ResponseTimestamp>
  <siri:SituationExchangeDelivery version="2.0">
   <siri:ResponseTimestamp>${oslo(now)}</siri:ResponseTimestamp>
   <siri:Situations>${situation('1', 'Signal fault: all trains delayed', '<siri:Networks><siri:AffectedNetwork><siri:AllLines/></siri:AffectedNetwork></siri:Networks>')}${situation(
     '2',
     'Train 2121 runs with fewer cars',
     `
     <siri:VehicleJourneys><siri:AffectedVehicleJourney>
      <siri:FramedVehicleJourneyRef><siri:DataFrameRef>2026-11-28</siri:DataFrameRef><siri:DatedVehicleJourneyRef>VYG:ServiceJourney:2121</siri:DatedVehicleJourneyRef></siri:FramedVehicleJourneyRef>
      <siri:Route><siri:StopPoints><siri:AffectedStopPoint><siri:StopPointRef>NSR:Quay:OSLOS-9</siri:StopPointRef></siri:AffectedStopPoint></siri:StopPoints></siri:Route>
     </siri:AffectedVehicleJourney></siri:VehicleJourneys>`,
   )}${situation('3', 'R10 replaced by bus after Drammen', '<siri:Networks><siri:AffectedNetwork><siri:AffectedLine><siri:LineRef>VYG:Line:R10</siri:LineRef></siri:AffectedLine></siri:AffectedNetwork></siri:Networks>')}${situation('4', 'Lift out of order at Oslo S track 9', '<siri:StopPoints><siri:AffectedStopPoint><siri:StopPointRef>NSR:Quay:OSLOS-9</siri:StopPointRef></siri:AffectedStopPoint></siri:StopPoints>')}${situation(
     '5',
     'Train 999 cancelled',
     `
     <siri:VehicleJourneys><siri:AffectedVehicleJourney><siri:DatedVehicleJourneyRef>VYG:ServiceJourney:999</siri:DatedVehicleJourneyRef><siri:LineRef>VYG:Line:L1</siri:LineRef></siri:AffectedVehicleJourney></siri:VehicleJourneys>`,
   )}
   </siri:Situations>
  </siri:SituationExchangeDelivery>
 </siri:ServiceDelivery>
</siri:Siri>`;
}
