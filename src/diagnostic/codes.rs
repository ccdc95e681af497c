//! The code table: every diagnostic code, its severity and a one-line summary. Codes are stable:
//! scripts and docs refer to them, so one is never reused for a different problem.

use std::fmt;

use serde::Serialize;

use super::Severity;

macro_rules! codes {
    ($($stage:ident { $($variant:ident = $code:literal, $severity:ident, $summary:literal;)* })*) => {
        /// Stable diagnostic codes, each with its severity, its [`Stage`] and a one-line summary
        /// (the variant's documentation is that summary).
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[non_exhaustive]
        pub enum Code { $($(#[doc = $summary] $variant,)*)* }

        impl Code {
            /// Every code, in table order.
            pub const ALL: &'static [Code] = &[$($(Code::$variant,)*)*];

            /// The stable text of the code, such as `CNV030`.
            pub fn as_str(self) -> &'static str {
                match self { $($(Code::$variant => $code,)*)* }
            }

            /// How serious the problem is; always the same for one code.
            pub fn severity(self) -> Severity {
                match self { $($(Code::$variant => Severity::$severity,)*)* }
            }

            /// The stage of the pipeline that reports this code.
            pub fn stage(self) -> Stage {
                match self { $($(Code::$variant => Stage::$stage,)*)* }
            }

            /// One line saying what the code is about (the README table is generated from these).
            pub fn summary(self) -> &'static str {
                match self { $($(Code::$variant => $summary,)*)* }
            }
        }
    };
}

/// The stage of the pipeline a code belongs to; the three letters of a code name it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
#[non_exhaustive]
pub enum Stage {
    /// `INP`: reading and parsing the input text.
    Input,
    /// `OAS`: the OpenAPI document (versions, `$ref`s, invalid items).
    OpenApi,
    /// `CNV`: decisions and failures of the conversion to OIS.
    Convert,
    /// `OIS`: the rules of the OIS format and of a node's config.json.
    Ois,
    /// `REQ`: the node's request for an endpoint call, and its response.
    Request,
    /// `CAL`: making the real API call (`ois call`).
    Call,
    /// `EDT`: refining an OIS with `ois endpoint`.
    Edit,
    /// `OUT`: writing the output.
    Output,
}

impl Stage {
    /// The three letters that start every code of the stage.
    pub fn prefix(self) -> &'static str {
        match self {
            Stage::Input => "INP",
            Stage::OpenApi => "OAS",
            Stage::Convert => "CNV",
            Stage::Ois => "OIS",
            Stage::Request => "REQ",
            Stage::Call => "CAL",
            Stage::Edit => "EDT",
            Stage::Output => "OUT",
        }
    }
}

codes! {
    Input {
        InputUnreadable = "INP001", Error, "the input file could not be read";
        InputNotUtf8 = "INP002", Error, "the input is not UTF-8 text";
        InputEmpty = "INP003", Error, "the input is empty";
        JsonSyntax = "INP004", Error, "the input is not valid JSON";
        YamlSyntax = "INP005", Error, "the input is not valid YAML";
        TooDeep = "INP006", Error, "the input nests deeper than the limit";
        DuplicateKey = "INP007", Error, "an object has the same key twice";
        AliasLimit = "INP008", Error, "YAML aliases expand beyond the limit";
        RootNotObject = "INP009", Error, "the document root is not an object";
        NotANumber = "INP010", Error, "a number that JSON cannot represent (NaN, infinity)";
        InputTooLarge = "INP011", Error, "the input is larger than the input limit (OIS_MAX_INPUT_BYTES)";
        InputNotRegular = "INP012", Error, "a file read on its own (a `$ref` target, a file in a folder) is not a regular file";
        TagIgnored = "INP013", Note, "YAML tags (`!Sub`, `!Ref`) read as the plain values they tag";
        PathOutsideFolder = "INP014", Error, "the studio was asked for a file outside the folder it was started on (an absolute path, `..`, or a link leading out)";
        TooManyValues = "INP015", Error, "the input would become more values in memory than its size allows (hostile density: `[{},{},…]`)";
    }
    OpenApi {
        NotOpenApi = "OAS001", Error, "no `openapi` or `swagger` field: not an OpenAPI document";
        UnsupportedVersion = "OAS002", Error, "an OpenAPI version this tool does not convert";
        RefMissing = "OAS010", Warning, "a `$ref` points at nothing; the item using it is skipped";
        RefCycle = "OAS011", Warning, "`$ref`s form a cycle; the item using it is skipped";
        RefExternal = "OAS012", Warning, "a `$ref` to another file is not supported yet";
        RefUrl = "OAS013", Warning, "a `$ref` to a URL: the tool never uses the network";
        RefMalformed = "OAS014", Warning, "a `$ref` that is not a valid JSON pointer reference";
        RefEscapes = "OAS015", Warning, "a `$ref` to a file outside the document's folder (or the allowed root folder)";
        InvalidItem = "OAS020", Warning, "an item that is not a valid OpenAPI object; it is skipped";
        SchemaTooDeep = "OAS021", Warning, "a schema nests deeper than flattening follows";
    }
    Convert {
        NoServer = "CNV001", Error, "no server URL: the document has none and no base URL is given";
        RelativeServer = "CNV002", Error, "a relative server URL and no base URL to resolve it";
        BadServerUrl = "CNV003", Error, "the server URL is not an absolute http(s) URL";
        ServerChoice = "CNV004", Error, "the server asked for is not a server of the document";
        ServerVariable = "CNV005", Error, "a server variable has no usable value";
        ServerChosen = "CNV006", Note, "how the server URL was chosen";
        OperationServer = "CNV007", Warning, "an operation declares servers other than the chosen one";
        BaseUrlUnused = "CNV008", Warning, "a base URL was given but not used: the server URL is absolute";
        ServerVariableTemplate = "CNV009", Error, "a server variable's value contains `{` or `}`, which would leave a template in the URL";
        SchemeAsBearer = "CNV020", Warning, "an oauth2/openIdConnect scheme becomes http bearer";
        SchemeDropped = "CNV021", Warning, "a security scheme OIS cannot express is dropped";
        SecurityUnmet = "CNV022", Warning, "an operation's security requirement cannot be met";
        SecurityChoice = "CNV023", Note, "which security schemes were chosen for the whole API";
        SchemeUndefined = "CNV024", Warning, "a security requirement names an undefined scheme";
        SecurityNotAvailable = "CNV025", Error, "a security scheme asked for is not defined or cannot be expressed";
        SecurityClash = "CNV026", Warning, "two security schemes write the same header, query or cookie name: only the first is kept";
        MethodSkipped = "CNV030", Note, "an operation with a method other than get/post is skipped";
        PathUnusable = "CNV031", Warning, "a path OIS cannot express (whitespace, no leading `/`, a malformed `{placeholder}`)";
        NoOperations = "CNV032", Error, "no get or post operation could be converted";
        PathReservedPlaceholder = "CNV033", Warning, "a path placeholder named like a reserved parameter (`{_type}`): its operations are skipped";
        BadFilter = "CNV034", Error, "an include/exclude filter that cannot be used";
        OperationsFiltered = "CNV035", Note, "operations left out by include/exclude filters";
        FilterUnmatched = "CNV037", Warning, "an include/exclude filter that matched no operation";
        NotOpenApiFile = "CNV036", Note, "a file of a batch that is not an OpenAPI document is skipped";
        HeaderIgnored = "CNV040", Note, "an Accept, Content-Type or Authorization header parameter is ignored";
        ReservedName = "CNV041", Warning, "a parameter named like a reserved parameter is skipped";
        PathParamAdded = "CNV042", Warning, "a `{placeholder}` without a path parameter: one is added";
        PathParamDropped = "CNV043", Warning, "a path parameter not in the path template is dropped";
        DuplicateParameter = "CNV044", Warning, "a parameter declared twice: the first is kept";
        ParamLocation = "CNV045", Warning, "a parameter in a location OIS cannot express is skipped";
        ParamRenamed = "CNV046", Note, "an endpoint parameter name was sanitised or made unique";
        DefaultNotWritten = "CNV047", Note, "a parameter's default from the document is not written (the API applies its own)";
        CredentialParameter = "CNV049", Note, "a parameter that a kept security scheme sends (the API key) is left to the scheme, not made a requester parameter";
        HeaderNameInvalid = "CNV048", Warning, "a header parameter whose name is not an HTTP token is skipped (the node cannot send it)";
        BodyOnGet = "CNV050", Warning, "a request body on a get operation is ignored";
        BodyUnsupported = "CNV051", Warning, "a request body that is not JSON is left out";
        BodyFormEncoded = "CNV052", Warning, "a form-encoded body is flattened; the node sends JSON";
        BodyNested = "CNV053", Warning, "body properties with object/array values are sent as given";
        BodyUnion = "CNV054", Warning, "a oneOf/anyOf body: the union of the alternatives' properties";
        BodyNotObject = "CNV055", Warning, "a body schema that is not an object cannot be expressed";
        BodyCollision = "CNV056", Warning, "a body property with the name of a query parameter";
        BodyReadOnly = "CNV057", Note, "readOnly body properties are left out";
        BodyFreeForm = "CNV058", Warning, "an object body without declared properties";
        ValueFixed = "CNV059", Note, "a required parameter the document allows one value (const, or an enum of one) is sent as a fixed value";
        EndpointRenamed = "CNV060", Note, "an endpoint name was made unique with a numeric suffix";
        TitleChanged = "CNV070", Warning, "the title was changed to fit the OIS title rule";
        VersionChanged = "CNV071", Note, "the version was changed to the x.y.z form OIS requires";
        TemplateEscaped = "CNV072", Warning, "a `${` from the document is written `\\${`, so the node's secrets interpolation keeps it as text";
        TemplateNested = "CNV073", Warning, "a `${` opens inside another `${…}`: no escape survives the node's interpolation, which reads the text with a stray `\\`";
        SecretNameSuffixed = "CNV074", Note, "a security scheme whose secret would be named like one of the node's own secrets (its mnemonic, a signed API's token) gets the name with `_API_CREDENTIAL` after it";
        CredentialLookingParameter = "CNV075", Warning, "a parameter that looks like the API's key (its name or description says so) but that no security scheme sends: its value would sit in every on-chain template";
        UpdateNoBase = "CNV080", Warning, "an update without a record of the last conversion or a base document: a two-way merge that keeps everything in the OIS";
        UpdateConflict = "CNV081", Warning, "update: the OIS and the API changed the same thing; the OIS's version is kept";
        EndpointRemoved = "CNV082", Warning, "update: an endpoint whose operation the API no longer has is removed, and its endpoint ID with it";
        EndpointAdded = "CNV083", Note, "update: an endpoint for a new API operation is added";
        ApiParameterRemoved = "CNV084", Warning, "update: a parameter the API no longer has is removed from its operation and endpoints";
        ApiParameterMoved = "CNV085", Note, "update: a parameter whose `in` changed is moved in its operation and endpoints";
        UpdateBreaksOis = "CNV086", Error, "update: the merged OIS would break an OIS rule (a refinement and an API change collide); nothing is written";
        RecordUnreadable = "CNV087", Warning, "update: the record of the last conversion cannot be read, and is ignored";
        UpdateChanges = "CNV088", Error, "an update check: the OIS is not in sync with the API document";
        RecordChangesCalls = "CNV089", Warning, "update: an option taken from the record (server, base URL, security) changes what the OIS calls";
        FormatMoved = "CNV090", Note, "an update for another node: the OIS moves to the format of the node asked for, its refinements kept";
        ParameterRenamed = "CNV091", Note, "update: a parameter went and another came in the same place of an operation, likely a rename that refinements do not follow";
        FeedOperationGone = "CNV092", Error, "update: a feed served by name calls an operation the API no longer has; nothing is written";
        SelfCheckFailed = "CNV099", Error, "the generated OIS failed its own check (a bug: please report it)";
    }
    Ois {
        WrongType = "OIS001", Error, "a value of the wrong JSON type";
        MissingField = "OIS002", Error, "a required field is missing";
        UnknownField = "OIS003", Error, "a field OIS does not allow (every OIS object is strict)";
        BadOisFormat = "OIS004", Error, "`oisFormat` is not x.y.z of a supported family (2.3.x, 3.0.x)";
        BadTitle = "OIS005", Error, "`title` is not 1-64 ASCII letters, digits, `_`, `-` or spaces";
        BadVersion = "OIS006", Error, "`version` is not x.y.z with numeric parts";
        OpenApiNotOis = "OIS007", Error, "an OpenAPI document where an OIS was expected";
        ServerCount = "OIS010", Error, "`servers` must hold exactly one server (format text; stricter than @api3/ois)";
        InvalidServerUrl = "OIS011", Error, "the server URL is not a valid URL";
        ServerNotAbsoluteHttp = "OIS012", Error, "the server URL is not absolute http(s) without `{variables}` (format text)";
        ServerTrailingSlash = "OIS013", Warning, "a trailing `/` on the server URL makes the node request `//path`";
        BadPathKey = "OIS014", Error, "a path key that does not start with `/` or contains whitespace";
        BadMethod = "OIS015", Error, "a method other than get or post";
        BadLocation = "OIS016", Error, "an `in` outside the allowed locations";
        ReservedOperationParameter = "OIS017", Error, "an API parameter named like a reserved parameter";
        PathTemplateMismatch = "OIS018", Error, "path `{placeholders}` and path parameters do not match";
        DuplicateOperationParameter = "OIS019", Error, "the same (in, name) twice in one operation";
        BadSecurityScheme = "OIS020", Error, "a security scheme of a type or shape OIS does not accept";
        UnmappedParameter = "OIS021", Error, "an API parameter not mapped by an endpoint that uses the operation";
        UnknownOperationParameter = "OIS022", Error, "an endpoint maps a parameter the operation does not have";
        ParameterMappedTwice = "OIS023", Error, "an endpoint maps the same (in, name) twice";
        UnknownOperation = "OIS024", Error, "an endpoint's operation is not in `apiSpecifications.paths`";
        UndefinedSecurity = "OIS025", Error, "`security` names a scheme that is not defined";
        SecurityNotEmpty = "OIS026", Error, "a `security` entry that is not an empty list";
        BadParameterName = "OIS027", Error, "an endpoint parameter name with whitespace or empty";
        DuplicateParameterName = "OIS028", Error, "two endpoint parameters with the same name";
        UnderscoreParameterName = "OIS029", Error, "an endpoint parameter name starting with `_` (format text)";
        NotAString = "OIS030", Error, "`default`, `example` or reserved `fixed` that is not a string";
        BadReservedName = "OIS031", Error, "a reserved parameter name outside the five reserved names";
        FixedAndDefault = "OIS032", Error, "a reserved parameter with both `fixed` and `default`";
        BadReservedNumber = "OIS033", Error, "`_minConfirmations`/`_gasPrice` that is not a non-negative integer";
        MissingType = "OIS034", Error, "`reservedParameters` without a `_type` entry";
        BadProcessing = "OIS035", Error, "a processing specification of the wrong shape";
        ProcessingBothForms = "OIS036", Error, "V1 and V2 processing for the same phase";
        NoOperationRules = "OIS037", Error, "an endpoint without `operation` that breaks the no-API-call rules";
        FixedValueMissing = "OIS038", Error, "a fixed operation parameter without `value` (required from 3.0)";
        DuplicateEndpointName = "OIS039", Error, "two endpoints with the same name (format text; the node uses the first)";
        BadEnumValue = "OIS040", Error, "a value outside the allowed set";
        EmptyFixed = "OIS050", Warning, "reserved `fixed: \"\"` does not fix anything at run time";
        UnencodableType = "OIS051", Warning, "a `_type` the node cannot encode";
        ArrayTypeBroken = "OIS052", Warning, "an array `_type` other than int256[]/uint256[] (the node casts elements as numbers)";
        TimestampWithPath = "OIS053", Warning, "`_type` timestamp together with `_path` or `_times`";
        TimesNotNumeric = "OIS054", Warning, "`_times` with a `_type` that is not int256/uint256";
        PathValueUnsafe = "OIS055", Warning, "a fixed path value the node would insert unencoded and that changes the URL";
        PathUnencoded = "OIS056", Note, "a requester's path value is inserted into the URL unencoded";
        ReservedCountMismatch = "OIS057", Warning, "`_path`/`_times` list lengths differ from `_type`'s";
        BadHeaderName = "OIS058", Error, "a header name that is not an HTTP token (the node's HTTP client refuses it)";
        SchemesClash = "OIS059", Warning, "two security schemes in `security` write the same header, query or cookie name";
        UnescapedTemplate = "OIS060", Error, "an unescaped `${` in an OIS: the node's secrets interpolation replaces it, or fails to load the config";
        UnknownCredentialTitle = "OIS061", Error, "an `apiCredentials` entry names no OIS of the file";
        UnknownCredentialScheme = "OIS062", Error, "an `apiCredentials` entry names a scheme its OIS does not define";
        MissingCredential = "OIS063", Error, "an enabled apiKey/http scheme has no credential";
        LiteralSecret = "OIS064", Warning, "a credential value that is not a `${VAR}` reference";
        DuplicateTitle = "OIS065", Error, "two OIS objects with the same title in one config";
        RelayWithGateway = "OIS066", Error, "relay security schemes together with an HTTP gateway";
        BadTrigger = "OIS067", Error, "a trigger naming an OIS or endpoint the config lacks, or an endpointId not derived from them";
        ConcurrencyTooLow = "OIS068", Error, "a chain's maxConcurrency below its number of providers";
        BadMnemonic = "OIS069", Error, "nodeSettings.airnodeWalletMnemonic is not a valid BIP-39 phrase";
        BadTemplateId = "OIS070", Error, "a template whose templateId is not derived from the Airnode address, endpointId and encodedParameters";
        SnippetUnrunnable = "OIS071", Error, "a processing snippet that does not parse, or a V2 `value` that is not a function expression";
        NoSnippetResult = "OIS072", Error, "a V1 `Node` snippet that never assigns `output`, or a `Node async` one that never calls `resolve` (best effort)";
        BadTemplateParameter = "OIS073", Error, "a template parameter the Airnode ABI encoder refuses (type, name, value)";
        TemplateValueSurprise = "OIS074", Warning, "a template value the encoder reads otherwise than it reads (`\"false\"` as a bool is true)";
        IdMismatch = "OIS075", Error, "an ID in a node config that is not derived from what it names";
        TemplateParameterUnknown = "OIS076", Error, "a template parameter (Airnode Feed or RRP) that is neither a parameter of its endpoint nor reserved (the node does not send it)";
        TemplateParameterMissing = "OIS077", Error, "an Airnode Feed template without a parameter its endpoint requires";
        TemplateUnservable = "OIS078", Error, "an Airnode Feed template whose request the Feed cannot make, or whose value it cannot encode (no `_type`)";
        BatchNotOneCall = "OIS079", Error, "an Airnode Feed trigger whose templates do not make one API call (different endpoints or pre-processed parameters)";
        UndecodableParameters = "OIS080", Error, "an Airnode (RRP) template whose encodedParameters airnode-abi cannot decode (every request of it fails)";
        NodeSecretAsCredential = "OIS081", Error, "an API credential that names one of the node's own secrets (its mnemonic, a signed API's token, a provider URL): the API would receive it";
        UnreleasedNodeVersion = "OIS082", Error, "a config's `nodeVersion` (Airnode Feed) or `version` (Signed API) that is no released version: each node starts only with a config naming exactly its own";
        ConfigsDisagree = "OIS083", Error, "an Airnode Feed config and a Signed API config checked together that do not agree (the Airnode, the push token, the URL)";
        DuplicateEntry = "OIS084", Error, "two entries the node requires to differ: signed API names, Signed API endpoint paths";
        FetchIntervalTooShort = "OIS085", Warning, "an Airnode Feed trigger whose fetchInterval is 0, negative or under a second: the Feed calls the API back to back";
        TemplateCredential = "OIS086", Warning, "a template value for a parameter that looks like the API's key: it is on chain, and hashed into the template's ID, for ever";
        BatchSplit = "OIS087", Note, "a batching Airnode Feed scaffold: an endpoint's templates that need more than one API call (their parameters after pre-processing differ), what differs and what would make them one";
        FeedWithoutParser = "OIS088", Error, "a feed served by name has a request in the pre-processing table and no parser in the post-processing table: its post-processing fails";
        FeedParserBroken = "OIS089", Error, "a feed's parser (in the post-processing table) is not a function expression: its post-processing fails";
        FeedNameUnusable = "OIS090", Error, "a feed name no template can carry: longer than 31 bytes (string32), empty, or with control characters";
        NodeSecretOutOfPlace = "OIS091", Error, "one of the node's own secrets (its mnemonic, a signed API's token, a chain or node setting) named where the node does not keep it: a URL, a template value, an OIS, another kind of slot; the node would send or publish it";
        FeedsReadOneValue = "OIS092", Warning, "two feeds answered by one call that read the same value of its answer (a batch whose value paths were not made each feed's own, or two names of one asset): every one of them publishes that one value";
        NodeVersionNotTarget = "OIS093", Error, "an Airnode Feed or Signed API config naming another release than the one checked for: the target's node refuses it at start (`Invalid node version`)";
        UnusedEndpoints = "OIS094", Note, "an Airnode Feed config that carries OIS endpoints no template uses: the node reads and checks all of them, and the config is bigger than its feeds need";
        RrpTemplatesUnchecked = "OIS096", Warning, "an Airnode config.json whose RRP template IDs are not checked: they derive from the Airnode address, and its mnemonic is a ${SECRET} filled when the node starts";
        ValuesReplayed = "OIS095", Note, "the values of a config's templates or an OIS's feeds answered from recorded answers, as the node would read them: how many, and whether each was its own";
    }
    Request {
        UnknownEndpoint = "REQ001", Error, "no endpoint of that name in the OIS";
        MissingPathValue = "REQ002", Error, "a path parameter has no value (the node fails)";
        MissingSecret = "REQ003", Error, "a `${VAR}` credential with no value in the secrets file (or the environment, for a name allowed from it)";
        PathValueChangesUrl = "REQ004", Warning, "a path value with `/`, `?` or `#` changes the URL's structure";
        BasicNotBase64 = "REQ005", Warning, "an http basic credential that is not base64 (the node sends it as given)";
        InvalidRequestUrl = "REQ006", Error, "the request URL is not a valid URL";
        InvalidOis = "REQ007", Error, "the OIS breaks OIS rules; the node would not load it";
        OisChoice = "REQ008", Error, "which OIS of the config to use is not clear";
        BadArgument = "REQ009", Error, "a requester parameter, metadata or secrets value that cannot be used";
        ParameterIgnored = "REQ010", Note, "a requester parameter the node does not send";
        InvalidHeaderValue = "REQ011", Warning, "a header the node's HTTP client changes before sending (control characters, non-Latin-1, spaces, case duplicates, null)";
        ResponseLenient = "REQ012", Warning, "a response with duplicate keys or numbers beyond a double, read as JSON.parse reads them";
        BadSecretsEntry = "REQ013", Error, "a secrets file entry the node refuses: a name not matching `^[A-Z][A-Z0-9_]*$` or an empty value";
        SecretExpression = "REQ014", Error, "a `${…}` that is not a secret's name, or is not closed: the node fails to interpolate its config";
        CredentialNotGiven = "REQ016", Warning, "a credential a bare OIS's security scheme needs, with no secrets file given: `request` shows the request without it, `call` (as an error) sends nothing";
        ServerReplaced = "REQ017", Note, "another server given: the request goes to it, not to the OIS's";
        RelayValueMissing = "REQ018", Warning, "request metadata without the field a relay scheme sends: the node sends nothing for it (a cookie: the text `undefined`)";
        ClientRefused = "REQ015", Error, "a request the node's HTTP client (axios) refuses to send: a query value nested more than 100 levels deep";
        ValueNotFound = "REQ020", Error, "no value at `_path` in the response (the node fails)";
        CastFailed = "REQ021", Error, "the value cannot be cast to `_type` (the node fails)";
        InvalidType = "REQ022", Error, "`_type` is not a type the node can encode";
        ReservedMismatch = "REQ023", Error, "reserved parameter lists of different lengths, or used where the node refuses them";
        EncodedTooLarge = "REQ024", Error, "the encoded value exceeds the node's 16384-byte limit";
        EncodingFailed = "REQ025", Error, "the value cannot be ABI-encoded as `_type`";
        ProcessingSyntax = "REQ030", Error, "a processing snippet that does not parse (the node fails the call)";
        ProcessingThrew = "REQ031", Error, "a processing snippet that throws or rejects (the node fails the call)";
        ProcessingTimeout = "REQ032", Error, "a processing snippet that runs past its `timeoutMs` or the node's 10 s for the phase";
        ProcessingShape = "REQ033", Error, "processing that returns the wrong shape (V2 `{endpointParameters}` / `{response, timestamp?}`, V1 pre-processing an object)";
        ProcessingValue = "REQ034", Error, "processing that returns a value JSON cannot carry (BigInt, NaN, Infinity, a cycle, a function)";
        NodeBuiltin = "REQ035", Error, "a snippet uses a Node.js module (`fs`, `crypto`, `process`, …) that the embedded sandbox does not provide";
        ProcessingEngine = "REQ036", Error, "the engine cannot run the snippet: `node` not found, or the sandbox's memory limit reached";
        Unsandboxed = "REQ037", Warning, "processing snippets run by the system `node`, unsandboxed";
    }
    Call {
        HostNotFound = "CAL001", Error, "the API's host name does not resolve (DNS)";
        ConnectionFailed = "CAL002", Error, "the API's server refused or dropped the connection";
        TlsFailed = "CAL003", Error, "the TLS handshake with the API failed (certificate, protocol)";
        CallTimeout = "CAL004", Error, "the API did not answer within the timeout (the node's is 10 s)";
        RedirectLoop = "CAL005", Error, "the API redirects in a loop, or more times than the node's HTTP client follows";
        HttpStatus = "CAL006", Error, "the API answered with a status other than 2xx (the node fails the call)";
        NotJson = "CAL007", Error, "the API's answer is not JSON";
        ResponseTooLarge = "CAL008", Error, "the API's answer is larger than the response size limit";
        CallFailed = "CAL009", Error, "the call failed in another way (the message says how)";
        CredentialRedirected = "CAL010", Warning, "a redirect carried a credential header to another origin, as the node's client would";
        NoRecording = "CAL011", Error, "a call answered from recordings, and none answers this request (nothing is sent)";
        AnswerDrifted = "CAL012", Error, "a live answer that drifted from its recording: a value gone, of another type, or a number moved more than allowed";
        ValuesEqual = "CAL013", Error, "two templates (feeds) answered by one API call got the same value: one of them is likely reading the other's element of the answer";
        BeaconNotLive = "CAL014", Error, "a beacon of a running deployment that its Signed API does not serve, or serves older than allowed";
        BeaconMisSigned = "CAL015", Error, "a beacon its Signed API serves that the config's Airnode did not sign, or for another template or beacon than the config derives";
        BeaconMoved = "CAL016", Error, "a beacon whose value moved from what the API answers now by more than allowed";
        SignedApiUnusable = "CAL017", Error, "a Signed API that refused the read, or answered something other than its signed data";
    }
    Edit {
        BadEdit = "EDT001", Error, "an endpoint edit that cannot be made: no such endpoint or parameter, a name taken or malformed, a value the node cannot read";
        EditBreaksOis = "EDT002", Error, "an edit whose result breaks an OIS rule (or leaves a node config naming what is gone): nothing was written";
        EditNote = "EDT003", Note, "what an edit changed or kept beside what was asked: a parameter another endpoint still uses, IDs re-derived, operations gone";
        BadFeed = "EDT004", Error, "a feed edit that cannot be made: a feed name taken, missing or malformed, an operation or parameter the vendor's document does not have, a batch of feeds on different paths";
        FeedTableUnreadable = "EDT005", Error, "the `feed` endpoint's processing is not the feed tables API3's scripts write, so its feeds cannot be read or changed";
    }
    Output {
        OutputExists = "OUT001", Error, "the output file exists and replacing it was not allowed";
        OutputWrite = "OUT002", Error, "the output could not be written";
        StrictWarnings = "OUT003", Error, "strict mode and there are warnings, so nothing was written";
        SecretsKept = "OUT004", Note, "a secrets template replacing a filled secrets file keeps its values, and the names it does not use";
        DeploySecretEmpty = "OUT005", Error, "a deployment folder whose node would start without a secret it needs (the mnemonic, an API key): nothing is written";
        DeployElsewhere = "OUT006", Note, "a deployment folder whose Feed pushes to a Signed API elsewhere: the folder's Signed API is the one to run there";
        RrpTemplatesKept = "OUT007", Note, "an Airnode config.json made again from one with RRP templates: each whose endpoint is still served is kept as it was";
        RrpTemplateDropped = "OUT008", Warning, "an Airnode config.json made again from one with an RRP template whose endpoint is no longer served: the template is dropped";
    }
}

impl fmt::Display for Code {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl Serialize for Code {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

/// Every code by name: a script (and the npm package's types) can match on them exhaustively.
impl schemars::JsonSchema for Code {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "DiagnosticCode".into()
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        let codes: Vec<&str> = Code::ALL.iter().map(|code| code.as_str()).collect();
        schemars::json_schema!({
            "description": "A stable diagnostic code (`ois explain CODE` says what it means).",
            "type": "string",
            "enum": codes,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_code_starts_with_its_stage() {
        for code in Code::ALL {
            assert!(code.as_str().starts_with(code.stage().prefix()), "{code}");
        }
    }
}
